import { Invalid } from './errors.js';

/**
 * Scribe's time rules, written once: the length of a day, the strict reading of civil dates and times, and the
 * ranges and slack the analytics API applies to them.
 *
 * Dates are read strictly. `Date.parse` and `Date.UTC` roll impossible dates over (31 February is 3 March, 24:00 is
 * the next midnight) and read years 0–99 as 1900–1999, so every analytics date — event timestamps, log-line times,
 * query bounds — is read field by field here and refused when a field is out of range.
 */

/** One UTC day. Day numbers (the day sets) and visitor-key periods are whole days since 1970-01-01. */
export const DAY_MS = 86_400_000;
/** One hour: the window of per-visitor and per-project rate limits. */
export const HOUR_MS = 3_600_000;

/** The range an analytics query covers when it names no `dateFrom`: 30 days before its `dateTo`. */
export const DEFAULT_RANGE_MS = 30 * DAY_MS;

/** Server-side submissions stamped further ahead of the server's clock than this are refused (clock skew allowance). */
export const FUTURE_SLACK_MS = 5 * 60_000;

/** A span of time in epoch ms. */
export interface TimeRange {
  /** inclusive, epoch ms */
  from: number;
  /** exclusive, epoch ms */
  to: number;
}

/** The UTC days a range touches, partly or wholly: [first, end) day numbers. */
export const daysTouched = (range: TimeRange): [number, number] => [
  Math.floor(range.from / DAY_MS),
  Math.ceil(range.to / DAY_MS),
];

/** The earliest instant analytics accept: 1970-01-01T00:00Z. Day numbers and visitor-key periods count from it. */
export const EARLIEST_MS = 0;

export interface CivilTime {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
  hour?: number;
  minute?: number;
  second?: number;
  millisecond?: number;
  /** the zone's offset east of UTC */
  offsetMinutes?: number;
}

/** The instant of a civil time, or undefined when a field is out of range (31 February, 24:00, a 60th second). */
export function civilToEpochMs(t: CivilTime): number | undefined {
  const { year, month, day, hour = 0, minute = 0, second = 0, millisecond = 0, offsetMinutes = 0 } = t;
  const fields = [year, month, day, hour, minute, second, millisecond, offsetMinutes];
  if (!fields.every(Number.isInteger)) return undefined;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || Math.min(hour, minute, second, millisecond) < 0 || millisecond > 999)
    return undefined;
  if (Math.abs(offsetMinutes) >= 24 * 60) return undefined;
  const date = new Date(0);
  // setUTCFullYear takes the year as written: Date.UTC would read 50 as 1950
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millisecond);
  return date.getTime() - offsetMinutes * 60_000;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/i;

/** `YYYY-MM-DD` as midnight UTC; undefined when it is not one or not a calendar date. */
export function parseIsoDate(value: string): number | undefined {
  const m = DATE_ONLY.exec(value);
  return m ? civilToEpochMs({ year: +m[1], month: +m[2], day: +m[3] }) : undefined;
}

/** An ISO 8601 / RFC 3339 date-time with a zone (`Z` or `±hh:mm`); undefined when it is not one or not a real time. */
export function parseIsoDateTime(value: string): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '0', zulu, sign, offsetHours, offsetMinutes] = m;
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  if (!zulu && Number(offsetMinutes) > 59) return undefined;
  return civilToEpochMs({
    year: +year,
    month: +month,
    day: +day,
    hour: +hour,
    minute: +minute,
    second: +second,
    millisecond: Number(fraction.slice(0, 3).padEnd(3, '0')),
    offsetMinutes: offset,
  });
}

/** Queries may name any time from 1970 through year 9999, the last a four-digit year can write. */
export const LATEST_QUERY_MS = Date.UTC(10_000, 0, 1);

/**
 * The range a listing's query names: `dateTo` defaults to now and `dateFrom` to the 30 days before `dateTo`; Invalid
 * when it is empty or reversed. Every analytics listing reads its range here.
 */
export function queryRange(params: { dateFrom?: number; dateTo?: number; now: number }): TimeRange {
  const to = params.dateTo ?? params.now;
  const from = params.dateFrom ?? to - DEFAULT_RANGE_MS;
  if (from >= to) throw new Invalid('Invalid query parameters', [{ message: 'dateFrom must be before dateTo' }]);
  return { from, to };
}
