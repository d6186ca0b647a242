import type { TimeRange } from '../../calendar.js';
import type { AnalyticsStore } from '../store/event-store.js';
import { compareCodePoints } from './compare-code-points.js';

export interface Referrals {
  /** per assistant: human views and distinct human visitors it sent */
  assistants: { assistant: string; views: number; visitors: number }[];
  /** per assistant × page, most views first */
  pages: { assistant: string; path: string; views: number; visitors: number }[];
}

/** Humans who arrived from an AI assistant (by referrer or `utm_source`), per assistant and per page. */
export async function aiReferrals(params: {
  store: Pick<AnalyticsStore, 'referralRows' | 'paths'>;
  projectId: string;
  range: TimeRange;
}): Promise<Referrals> {
  const { store, projectId, range } = params;
  const { byAssistant, byPage } = await store.referralRows(projectId, range);
  const name = (agent: string) => agent.replace(/^via /, '');
  const paths = await store.paths(projectId, new Set(byPage.map((r) => Number(r.pageId))).values());
  const assistants = byAssistant
    .map((r) => ({ assistant: name(r.agent), views: Number(r.views), visitors: Number(r.visitors) }))
    .sort((a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant));
  const pages = byPage
    .map((r) => ({
      assistant: name(r.agent),
      path: paths.get(Number(r.pageId)) ?? `#${r.pageId}`,
      views: Number(r.views),
      visitors: Number(r.visitors),
    }))
    .sort(
      (a, b) => b.views - a.views || compareCodePoints(a.assistant, b.assistant) || compareCodePoints(a.path, b.path),
    );
  return { assistants, pages };
}
