import { sitePages } from '../problems/site-pages.js';

/** A page a docs pull request changed, by the path the site serves it at. */
export type ChangedPage =
  | { path: string; change: 'added' | 'edited' | 'deleted' }
  | { path: string; change: 'moved'; from: string };

/** One entry of a job's step log (agent/types.ts `tool_call`). */
export interface ToolCall {
  tool: string;
  command?: string;
  path?: string;
  ok: boolean;
}

const WRITES = new Set(['create', 'str_replace', 'insert']);
const MOVE = ' -> ';

/**
 * The pages a job's pull request changed, read from its step log (the one record of what the run touched) and mapped
 * to page paths the way the problems queue maps the site's files (problems/site-pages.ts), so a page's traffic and a
 * change to it name it alike. `siteFiles` are the docs branch's files after the merge; they place the docs root.
 * A file first written by `create` is added; a file added and deleted in the same run changed nothing. Pure.
 */
export function changedPages(calls: readonly ToolCall[], siteFiles: readonly string[]): ChangedPage[] {
  const files = new Map<string, { change: 'added' | 'edited' | 'deleted' } | { change: 'moved'; from: string }>();
  for (const call of calls) {
    if (!call.ok || !call.path) continue;
    if (call.tool === 'move_file' && call.path.includes(MOVE)) {
      const [from, to] = call.path.split(MOVE);
      const earlier = files.get(from);
      files.delete(from);
      files.set(
        to,
        earlier?.change === 'added'
          ? earlier
          : { change: 'moved', from: earlier?.change === 'moved' ? earlier.from : from },
      );
    } else if (call.tool === 'delete_file') {
      const earlier = files.get(call.path);
      if (earlier?.change === 'added') files.delete(call.path);
      else files.set(call.path, { change: 'deleted' });
    } else if (WRITES.has(call.command ?? '') && !files.has(call.path)) {
      files.set(call.path, { change: call.command === 'create' ? 'added' : 'edited' });
    }
  }
  const named = [...files].flatMap(([file, c]) => (c.change === 'moved' ? [file, c.from] : [file]));
  const all = [...new Set([...siteFiles, ...named])].map((path) => ({ path, text: '' }));
  const pathOf = new Map(sitePages(all).map((p) => [p.file, p.path]));
  const pages: ChangedPage[] = [];
  for (const [file, c] of files) {
    const path = pathOf.get(file);
    if (!path) continue;
    if (c.change !== 'moved') pages.push({ path, change: c.change });
    else {
      const from = pathOf.get(c.from);
      pages.push(from ? { path, change: 'moved', from } : { path, change: 'added' });
    }
  }
  return pages.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
