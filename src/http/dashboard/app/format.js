// How figures, ages, trends and links are written, once for every view.

export const num = (n) => Number(n).toLocaleString('en');
/** "1 request", "2 requests": `plural` when the word does not just take an s */
export const count = (n, word, plural = `${word}s`) => `${num(n)} ${n === 1 ? word : plural}`;

export function age(iso) {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 129600) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86400)} d ago`;
}

/** "+25%" / "−10%" / "new" / "no change" against the previous figure. */
export function change(current, previous) {
  if (previous === 0) return current === 0 ? 'no change' : 'new';
  const percent = Math.round(((current - previous) / previous) * 100);
  if (percent === 0) return 'no change';
  return percent > 0 ? `+${percent}%` : `−${Math.abs(percent)}%`;
}

export const pageHref = (path) => `#page?path=${encodeURIComponent(path)}`;
export const agentHref = (agent) => `#agent?name=${encodeURIComponent(agent)}`;
export const jobHref = (id) => `#job/${encodeURIComponent(id)}`;

/** `owner/name#12` of a pull request's web address. */
export const prLabel = (link) => link.replace(/^https?:\/\/[^/]+\//, '').replace('/pull/', '#');

const DAY = 86_400_000;
export const isoDay = (ms) => new Date(ms).toISOString().slice(0, 10);
export const dayMs = (iso) => Date.parse(`${iso}T00:00:00Z`);

/** The range just before `range`, as long as it. */
export function previousRange({ from, to }) {
  const length = dayMs(to) - dayMs(from);
  return { from: isoDay(dayMs(from) - length), to: from };
}
export const rangeDays = ({ from, to }) => Math.round((dayMs(to) - dayMs(from)) / DAY);
export const rangeQuery = ({ from, to }) => ({ dateFrom: from, dateTo: to });

/**
 * The outcome window to show: the longest complete one (the verdict's), else the shortest partial one (every partial
 * window has the same days after so far; the shortest compares them with the fewest days before).
 */
export const shownWindow = (outcome) =>
  [...outcome.windows].sort((a, b) => b.days - a.days).find((w) => w.status === 'complete') ??
  [...outcome.windows].sort((a, b) => a.days - b.days).find((w) => w.status === 'partial');
