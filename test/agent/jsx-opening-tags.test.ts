import { jsxOpeningTags } from '../../src/agent/jsx-opening-tags.js';

describe('jsxOpeningTags', () => {
  it('reads string and expression attributes across lines, and only the named components', () => {
    const text = [
      '<ParamField body="userId" required default={{ a: { b: 1 } }} >',
      '<ParamFieldGroup name="not this" />',
      "<ResponseField\n  name='user'\n  type={kind}\n/>",
    ].join('\n');
    expect(jsxOpeningTags(text, ['ParamField', 'ResponseField'])).toEqual([
      {
        name: 'ParamField',
        attributes: new Map<string, string | null>([
          ['body', 'userId'],
          ['required', ''],
          ['default', null],
        ]),
      },
      {
        name: 'ResponseField',
        attributes: new Map<string, string | null>([
          ['name', 'user'],
          ['type', null],
        ]),
      },
    ]);
  });

  it('cannot read a tag with a spread', () => {
    expect(jsxOpeningTags('<ParamField {...props} />', ['ParamField'])).toEqual([
      { name: 'ParamField', attributes: undefined },
    ]);
  });
});
