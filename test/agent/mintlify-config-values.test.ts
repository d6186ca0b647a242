import { mintlifyConfigValueProblems } from '../../src/agent/mintlify-config-values.js';

describe('mintlifyConfigValueProblems', () => {
  const valid = {
    name: 'Acme',
    theme: 'aspen',
    colors: { primary: '#0D9373', light: '#fff' },
    navigation: { pages: ['index'] },
  };

  it('accepts a valid docs.json and fields it does not restrict', () => {
    expect(
      mintlifyConfigValueProblems({
        ...valid,
        appearance: { default: 'dark' },
        icons: { library: 'lucide' },
        custom: { anything: 1 },
      }),
    ).toEqual([]);
  });

  it('reports missing required fields, values outside their set and colours that are not hex', () => {
    expect(
      mintlifyConfigValueProblems({
        theme: 'mint',
        colors: { primary: '#123', dark: 'navy' },
        api: { playground: { display: 'full' } },
      }),
    ).toEqual([
      'the required "name" is missing.',
      'the required "navigation" is missing.',
      '"api.playground.display" is "full"; it must be one of interactive, simple, none, auth.',
      '"colors.dark" is "navy"; it must be a hex colour such as "#0D9373".',
    ]);
  });
});
