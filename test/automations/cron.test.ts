import { CronError, latestSlot, parseCron, timezoneProblem } from '../../src/automations/cron.js';

const at = (iso: string) => new Date(iso);
const LONG_AGO = at('2000-01-01T00:00:00Z');
/** the latest slot at or before `iso` of `expression` read in `timezone`, as an ISO string */
const latest = (expression: string, iso: string, timezone = 'UTC') =>
  latestSlot(parseCron(expression, timezone), at(iso), LONG_AGO)?.toISOString();

describe('parseCron', () => {
  it('reads numbers, ranges, steps, lists, names, 7 as Sunday and a start with a step', () => {
    expect(latest('*/15 9-17/4 1,15 jan-mar,dec *', '2026-12-15T16:59:00Z')).toBe('2026-12-15T13:45:00.000Z');
    expect(latest('0 0 * * 7', '2026-11-25T00:00:00Z')).toBe('2026-11-22T00:00:00.000Z'); // a Sunday
    expect(latest('5/20 0 * * *', '2026-11-23T00:59:00Z')).toBe('2026-11-23T00:45:00.000Z');
  });

  it.each([
    ['61 * * * *', 'invalid value for minute: 61'],
    ['* * * *', 'exactly five, six, or seven'],
    ['* * * * * *', 'requires exactly 5 parts'],
    ['*/0 * * * *', 'illegal stepping: 0'],
    ['5-1 * * * *', "from value is larger than to value: '5-1'"],
    ['* * 32 * *', 'invalid value for day'],
    ['* * * foo *', 'contains illegal characters'],
    ['1,,2 * * * *', 'is empty'],
    ['1-2-3 * * * *', "illegal range: '1-2-3'"],
    ['0 0 * * 5#6', 'nth'],
    ['@reboot', 'not supported'],
    ['', 'exactly five, six, or seven'],
  ])('refuses %j, saying why', (expression, message) => {
    expect(() => parseCron(expression)).toThrow(CronError);
    expect(() => parseCron(expression)).toThrow(message);
  });

  it('refuses a schedule that is not a string and a zone that is not an IANA name', () => {
    expect(() => parseCron(6)).toThrow('a schedule must be a string');
    expect(() => parseCron('0 6 * * *', 'Mars/Olympus')).toThrow(CronError);
    expect(timezoneProblem('Europe/Paris')).toBeNull();
    expect(timezoneProblem('+02:00')).toMatch(/not an IANA time zone name/);
    expect(timezoneProblem('')).toMatch(/must be an IANA name/);
  });
});

describe('latestSlot', () => {
  it('finds the latest slot at or before a time, and none at or before the floor', () => {
    const mondays = parseCron('0 6 * * 1');
    const floor = at('2026-11-01T00:00:00Z');
    expect(latestSlot(mondays, at('2026-11-23T06:00:00Z'), floor)).toEqual(at('2026-11-23T06:00:00Z'));
    expect(latestSlot(mondays, at('2026-11-23T06:00:30Z'), floor)).toEqual(at('2026-11-23T06:00:00Z'));
    expect(latestSlot(mondays, at('2026-11-23T05:59:59.999Z'), floor)).toEqual(at('2026-11-16T06:00:00Z'));
    expect(latestSlot(mondays, at('2026-11-23T05:59:00Z'), at('2026-11-20T00:00:00Z'))).toBeNull();
    expect(latestSlot(mondays, at('2026-11-23T06:00:00Z'), at('2026-11-23T06:00:00Z'))).toBeNull();
    expect(latest('30 12 29 feb *', '2026-11-23T00:00:00Z')).toBe('2024-02-29T12:30:00.000Z');
  });

  it('matches a day in either day field when both are restricted', () => {
    expect(latest('0 0 1 * 1', '2026-12-01T00:00:00Z')).toBe('2026-12-01T00:00:00.000Z'); // the 1st, a Tuesday
    expect(latest('0 0 1 * 1', '2026-11-30T23:00:00Z')).toBe('2026-11-30T00:00:00.000Z'); // a Monday
    expect(latest('0 0 1 * 1', '2026-11-29T00:00:00Z')).toBe('2026-11-23T00:00:00.000Z');
  });

  it('reads nicknames', () => {
    expect(latest('@daily', '2026-11-23T05:00:00Z')).toBe('2026-11-23T00:00:00.000Z');
    expect(latest('@midnight', '2026-11-23T05:00:00Z')).toBe('2026-11-23T00:00:00.000Z');
    expect(latest('@weekly', '2026-11-25T05:00:00Z')).toBe('2026-11-22T00:00:00.000Z'); // Sunday midnight
    expect(latest('@hourly', '2026-11-23T05:59:00Z')).toBe('2026-11-23T05:00:00.000Z');
    expect(latest('@monthly', '2026-11-23T05:00:00Z')).toBe('2026-11-01T00:00:00.000Z');
    expect(latest('@yearly', '2026-11-23T05:00:00Z')).toBe('2026-01-01T00:00:00.000Z');
    expect(latest('@daily', '2026-11-23T05:00:00Z', 'America/New_York')).toBe('2026-11-23T05:00:00.000Z');
  });

  it('reads L, W and #', () => {
    expect(latest('0 0 L * *', '2026-03-15T00:00:00Z')).toBe('2026-02-28T00:00:00.000Z');
    expect(latest('0 0 L * *', '2024-03-15T00:00:00Z')).toBe('2024-02-29T00:00:00.000Z');
    expect(latest('0 0 * * 5L', '2026-11-29T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z'); // last Friday
    // the 15th of November 2026 is a Sunday: the nearest weekday is Monday the 16th
    expect(latest('0 0 15W * *', '2026-11-20T00:00:00Z')).toBe('2026-11-16T00:00:00.000Z');
    // the 31st of October 2026 is a Saturday: the last weekday is Friday the 30th
    expect(latest('0 0 LW * *', '2026-11-20T00:00:00Z')).toBe('2026-10-30T00:00:00.000Z');
    expect(latest('0 9 * * mon#2', '2026-11-20T00:00:00Z')).toBe('2026-11-09T09:00:00.000Z');
    expect(latest('0 9 * * 5#2', '2026-11-20T00:00:00Z')).toBe('2026-11-13T09:00:00.000Z');
  });

  it('reads a schedule in its time zone, across daylight saving changes', () => {
    // 09:00 in New York is 14:00 UTC in winter and 13:00 UTC once summer time starts (8 March 2026)
    expect(latest('0 9 * * *', '2026-03-07T20:00:00Z', 'America/New_York')).toBe('2026-03-07T14:00:00.000Z');
    expect(latest('0 9 * * *', '2026-03-09T20:00:00Z', 'America/New_York')).toBe('2026-03-09T13:00:00.000Z');
    expect(latest('0 9 * * *', '2026-03-09T20:00:00Z')).toBe('2026-03-09T09:00:00.000Z');
    // 02:30 does not exist in Berlin on 29 March 2026 (02:00 jumps to 03:00): the run moves to 03:00 CEST
    expect(latest('30 2 * * *', '2026-03-29T12:00:00Z', 'Europe/Berlin')).toBe('2026-03-29T01:00:00.000Z');
    // 02:30 happens twice in Berlin on 25 October 2026: a fixed-time schedule runs at the first only
    expect(latest('30 2 * * *', '2026-10-25T12:00:00Z', 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z');
    // an every-30-minutes schedule runs in both of the repeated hours
    const halfHours = parseCron('*/30 * * * *', 'Europe/Berlin');
    const slots = halfHours.previousRuns(4, at('2026-10-25T02:00:01Z')).map((d) => d.toISOString());
    expect(slots).toEqual([
      '2026-10-25T02:00:00.000Z',
      '2026-10-25T01:30:00.000Z',
      '2026-10-25T01:00:00.000Z',
      '2026-10-25T00:30:00.000Z',
    ]);
  });
});
