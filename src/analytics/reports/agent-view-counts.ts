import { DAY_MS, type TimeRange } from '../../calendar.js';
import { KIND } from '../store/day-sets.js';
import type { Sql } from '../store/sql.js';
import type { Dictionaries } from '../store/dictionaries.js';
import type { DayCache } from '../store/day-cache.js';
import type { AgentView } from '../store/robots-txt.js';
import { PageCounts } from '../store/page-counts.js';
import { type AgentCell, cellKey } from '../store/rollups/agent-cell.js';
import { VIA_PREFIX } from '../store/write-events.js';
import { withAgentCells } from './agent-cells.js';

type Params = {
  sql: Sql;
  dictionaries: Dictionaries;
  cache: DayCache;
  projectId: string;
  range: TimeRange;
  /** the humans an assistant sent too (cells `via <assistant>`, kind human) */
  referred?: boolean;
};

/** A piece of the range's views per AI (or spoofed AI) cell and page. */
type PieceViews = Map<string, { cell: AgentCell; sums: PageCounts }>;

/**
 * The AI and spoofed cells' views over a range (and with `referred` those of the humans an assistant sent), as the
 * other AI reports read it: whole days derived, edges raw.
 */
async function viewsOver(params: Params, range: TimeRange): Promise<PieceViews> {
  const out: PieceViews = new Map();
  if (range.from >= range.to) return out;
  const wanted = (cell: AgentCell) =>
    cell.kind === KIND.ai ||
    cell.kind === KIND.bot ||
    (params.referred === true && cell.kind === KIND.human && cell.agent.startsWith(VIA_PREFIX));
  await withAgentCells({ ...params, range, viewsOnly: true, aiOnly: true }, (cells) => {
    for (const { cell, views } of cells) if (wanted(cell)) out.set(cellKey(cell), { cell, sums: views });
  });
  return out;
}

/** Adds (`sign` 1) or takes away (-1) a piece's views. */
function addViews(target: PieceViews, source: PieceViews, sign: 1 | -1): void {
  for (const [key, { cell, sums }] of source) {
    let into = target.get(key);
    if (!into) target.set(key, (into = { cell, sums: new PageCounts() }));
    const { pages, counts } = sums.pageEntries();
    for (let j = 0; j < pages.length; j++) into.sums.add(sign * counts[j], pages[j]);
  }
}

/**
 * The range's AI views and spoofed AI user agents' views (with `referred`, the views of humans an assistant sent
 * too), counted per agent cell and page as the other AI reports
 * read them: whole days from the agent rollup, the rest (partial days, days not folded yet) from raw events. The
 * range is first cut at `cuts` (times at which what judges a view changes: a new robots.txt version); the counts of
 * each piece carry the piece's start as their `ts`, and nothing that judges them changes inside a piece.
 *
 * A cut inside a day would make both of the day's parts raw reads. Views add up, so the pieces are read cut at the
 * nearer midnight instead (the day whole from the rollup) and only the day's part between that midnight and the cut
 * is read raw, added to one piece and taken from the other: the smaller part of the day, not all of it.
 */
export async function agentViewCounts(params: Params & { cuts?: number[] }): Promise<AgentView[]> {
  const { sql, dictionaries, projectId, range } = params;
  const inside = [...new Set(params.cuts ?? [])].filter((t) => t > range.from && t < range.to).sort((a, b) => a - b);
  const bounds = [range.from, ...inside, range.to];
  const read = [...bounds];
  const moved: { at: number; part: TimeRange; later: boolean }[] = [];
  for (let i = 1; i + 1 < bounds.length; i++) {
    const dayStart = Math.floor(bounds[i] / DAY_MS) * DAY_MS;
    const dayEnd = dayStart + DAY_MS;
    // only a cut alone in a day the pieces on both sides hold whole
    if (bounds[i] === dayStart || bounds[i - 1] > dayStart || bounds[i + 1] < dayEnd) continue;
    const later = bounds[i] - dayStart > dayEnd - bounds[i];
    read[i] = later ? dayEnd : dayStart;
    moved.push({ at: i, part: later ? { from: bounds[i], to: dayEnd } : { from: dayStart, to: bounds[i] }, later });
  }
  const pieces: PieceViews[] = [];
  for (let i = 0; i + 1 < read.length; i++) pieces.push(await viewsOver(params, { from: read[i], to: read[i + 1] }));
  for (const { at, part, later } of moved) {
    // read cut at the day's end, the part after the cut belongs to the later piece; at its start, to the earlier one
    const views = await viewsOver(params, part);
    addViews(pieces[at - 1], views, later ? -1 : 1);
    addViews(pieces[at], views, later ? 1 : -1);
  }
  const runs = pieces.flatMap((piece, i) =>
    [...piece.values()].map(({ cell, sums }) => ({ ts: bounds[i], ...cell, ...sums.pageEntries() })),
  );
  const wanted = new Set<number>();
  for (const run of runs) for (const page of run.pages) wanted.add(page);
  const paths = await dictionaries.paths(sql, projectId, wanted);
  const views: AgentView[] = [];
  for (const { ts, kind, agent, verification, pages, counts } of runs)
    for (let j = 0; j < pages.length; j++)
      if (counts[j] > 0)
        views.push({ ts, path: paths.get(pages[j]) ?? '', kind, agent, verification, views: counts[j] });
  return views;
}
