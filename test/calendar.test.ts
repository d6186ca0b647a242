import { civilToEpochMs, DAY_MS, daysTouched, parseIsoDate, parseIsoDateTime, queryRange } from '../src/calendar.js';
import { Invalid } from '../src/errors.js';

describe('calendar time', () => {
  it('refuses dates and times that do not exist instead of rolling them over', () => {
    for (const v of ['2026-02-29', '2026-02-31', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '1900-02-29'])
      expect({ v, ms: parseIsoDate(v) }).toEqual({ v, ms: undefined });
    for (const v of [
      '2026-02-31T10:00:00Z',
      '2026-11-20T24:00Z',
      '2026-11-20T10:60Z',
      '2026-11-20T10:00:60Z',
      '2026-11-20T10:00+24:00',
      '2026-11-20T10:00+01:60',
      '2026-11-20T10:00:00',
      '2026-11-20 10:00Z',
    ]) {
      expect({ v, ms: parseIsoDateTime(v) }).toEqual({ v, ms: undefined });
    }
    expect(civilToEpochMs({ year: 2026, month: 2, day: 31 })).toBeUndefined();
    expect(civilToEpochMs({ year: 2026, month: 11, day: 20, hour: 10, minute: 30.5 })).toBeUndefined();
  });

  it('reads leap days and every zone form as the instant written', () => {
    expect(parseIsoDate('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
    expect(parseIsoDate('2000-02-29')).toBe(Date.UTC(2000, 1, 29));
    expect(parseIsoDateTime('2026-11-20T10:00:00.123456789Z')).toBe(Date.UTC(2026, 10, 20, 10, 0, 0, 123));
    expect(parseIsoDateTime('2026-11-20T10:00+01:30')).toBe(Date.UTC(2026, 10, 20, 8, 30));
    expect(parseIsoDateTime('2026-11-20t10:00:00.5-0130')).toBe(Date.UTC(2026, 10, 20, 11, 30, 0, 500));
    expect(civilToEpochMs({ year: 2026, month: 11, day: 20, hour: 11, offsetMinutes: 60 })).toBe(
      Date.UTC(2026, 10, 20, 10),
    );
  });

  it('reads years 0–99 as written, not as 1900–1999', () => {
    expect(new Date(parseIsoDate('0050-01-01')!).getUTCFullYear()).toBe(50);
    expect(new Date(parseIsoDateTime('0099-12-31T23:59:59Z')!).getUTCFullYear()).toBe(99);
  });

  it('reads a listing range: dateTo defaults to now, dateFrom to 30 days before dateTo, and an empty range is Invalid', () => {
    const now = Date.UTC(2026, 10, 24, 12);
    expect(queryRange({ now })).toEqual({ from: now - 30 * DAY_MS, to: now });
    const to = Date.UTC(2026, 0, 31);
    expect(queryRange({ dateTo: to, now })).toEqual({ from: to - 30 * DAY_MS, to });
    expect(queryRange({ dateFrom: Date.UTC(2026, 0, 1), now })).toEqual({ from: Date.UTC(2026, 0, 1), to: now });
    expect(() => queryRange({ dateFrom: to, dateTo: to, now })).toThrow(Invalid);
    expect(() => queryRange({ dateFrom: to + 1, dateTo: to, now })).toThrow('Invalid query parameters');
  });

  it('names the days a range touches: a partial day at either end counts, a range ending at midnight stops there', () => {
    const day = 20_000;
    expect(daysTouched({ from: day * DAY_MS, to: (day + 3) * DAY_MS })).toEqual([day, day + 3]);
    expect(daysTouched({ from: day * DAY_MS + 1, to: (day + 3) * DAY_MS - 1 })).toEqual([day, day + 3]);
    expect(daysTouched({ from: day * DAY_MS - 1, to: (day + 3) * DAY_MS + 1 })).toEqual([day - 1, day + 4]);
  });
});
