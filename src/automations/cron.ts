/**
 * Five-field cron (minute hour day-of-month month day-of-week), read in UTC: `*`, numbers, ranges `a-b`, steps
 * `*\/n` and `a-b/n`, lists `a,b`, and month and weekday names (`jan`, `mon`). Day-of-month and day-of-week follow
 * cron's rule: when both are restricted, a day matching either is due. Pure, so tested directly.
 */
export interface Cron {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

interface FieldSpec {
  name: string;
  min: number;
  max: number;
  names?: string[];
  /** offset added to a name's index (months count from 1) */
  nameBase?: number;
}

const FIELDS: FieldSpec[] = [
  { name: 'minute', min: 0, max: 59 },
  { name: 'hour', min: 0, max: 23 },
  { name: 'day of month', min: 1, max: 31 },
  { name: 'month', min: 1, max: 12, names: MONTHS, nameBase: 1 },
  // 7 is Sunday too, as in every common cron
  { name: 'day of week', min: 0, max: 7, names: WEEKDAYS, nameBase: 0 },
];

export class CronError extends Error {}

function value(text: string, spec: FieldSpec): number {
  const lower = text.toLowerCase();
  const named = spec.names?.indexOf(lower) ?? -1;
  if (named >= 0) return named + (spec.nameBase ?? 0);
  if (!/^\d{1,2}$/.test(text))
    throw new CronError(`${spec.name}: "${text}" is not a number${spec.names ? ' or a name' : ''}`);
  const n = Number(text);
  if (n < spec.min || n > spec.max) throw new CronError(`${spec.name}: ${n} is outside ${spec.min}-${spec.max}`);
  return n;
}

function field(text: string, spec: FieldSpec): Set<number> {
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText, extra] = part.split('/');
    if (extra !== undefined || range === '') throw new CronError(`${spec.name}: "${part}" is not a valid entry`);
    let step = 1;
    if (stepText !== undefined) {
      if (!/^\d{1,2}$/.test(stepText) || Number(stepText) === 0)
        throw new CronError(`${spec.name}: step "${stepText}" must be a positive number`);
      step = Number(stepText);
    }
    let from: number;
    let to: number;
    if (range === '*') {
      [from, to] = [spec.min, spec.max];
    } else if (range.includes('-')) {
      const [a, b, more] = range.split('-');
      if (more !== undefined) throw new CronError(`${spec.name}: "${range}" is not a valid range`);
      [from, to] = [value(a, spec), value(b, spec)];
      if (from > to) throw new CronError(`${spec.name}: range ${range} runs backwards`);
    } else {
      from = value(range, spec);
      // `5/15` means from 5 to the end in steps of 15
      to = stepText === undefined ? from : spec.max;
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

export function parseCron(expression: string): Cron {
  if (typeof expression !== 'string') throw new CronError('a schedule must be a string of five fields');
  const parts = expression.trim().split(/\s+/);
  if (parts.length !== 5 || parts[0] === '')
    throw new CronError(`"${expression}" must have five fields (minute hour day-of-month month day-of-week)`);
  const [minutes, hours, days, months, weekdays] = parts.map((part, i) => field(part, FIELDS[i]));
  if (weekdays.has(7)) {
    weekdays.delete(7);
    weekdays.add(0);
  }
  return {
    minutes,
    hours,
    days,
    months,
    weekdays,
    daysRestricted: parts[2] !== '*',
    weekdaysRestricted: parts[4] !== '*',
  };
}

function dayMatches(cron: Cron, date: Date): boolean {
  const day = cron.days.has(date.getUTCDate());
  const weekday = cron.weekdays.has(date.getUTCDay());
  if (cron.daysRestricted && cron.weekdaysRestricted) return day || weekday;
  return day && weekday;
}

/** Whether the minute starting at `date` (UTC) is one of the schedule's slots. */
export function cronMatches(cron: Cron, date: Date): boolean {
  return (
    cron.minutes.has(date.getUTCMinutes()) &&
    cron.hours.has(date.getUTCHours()) &&
    cron.months.has(date.getUTCMonth() + 1) &&
    dayMatches(cron, date)
  );
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * The latest slot at or before `at` and after `notBefore`, or null. Walks back day by day to a due day, then minute
 * by minute within it, so a yearly schedule costs at most a few hundred steps.
 */
export function latestSlot(cron: Cron, at: Date, notBefore: Date): Date | null {
  let minute = Math.floor(at.getTime() / MINUTE) * MINUTE;
  const floor = notBefore.getTime();
  while (minute > floor) {
    const date = new Date(minute);
    if (!cron.months.has(date.getUTCMonth() + 1) || !dayMatches(cron, date)) {
      // jump to the last minute of the previous day
      minute = Math.floor(minute / DAY) * DAY - MINUTE;
      continue;
    }
    if (cronMatches(cron, date)) return date;
    minute -= MINUTE;
  }
  return null;
}
