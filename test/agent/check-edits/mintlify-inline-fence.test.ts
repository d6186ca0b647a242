import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEdits } from '../../../src/agent/check-edits.js';
import { allFilesNew, editSession, type EditSession } from '../../support/edit-session.js';

/**
 * A Mintlify page shaped like the starter template's development page: inline code written with triple backticks,
 * indented inside a <Step>, above the <Card>s that link to other pages. A backtick fence's info string cannot contain
 * a backtick, so that line opens no code block, and the cards below it are links like any other.
 */
const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../fixtures/agent/mintlify-inline-fence');

let site: EditSession;
beforeEach(async () => {
  site = await editSession(FIXTURE);
});
afterEach(() => site.cleanup());

describe('checkEdits on a page with inline code written as ```…```', () => {
  it('passes the site as it is', async () => {
    expect(await checkEdits({ workspaceDir: site.dir, originals: await allFilesNew(site.dir) })).toEqual([]);
  });

  it('reports the card below the inline code that links to a page the agent deleted', async () => {
    await site.remove('essentials/code.mdx');
    await site.replace('docs.json', '"essentials/code", ', '');
    expect(await site.check()).toEqual([
      'development.mdx:18: the link "/essentials/code" points at essentials/code.mdx, which you deleted or moved.',
    ]);
  });
});
