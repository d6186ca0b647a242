import { CronError, cronMatches, latestSlot, parseCron } from '../../src/automations/cron.js';

const at = (iso: string) => new Date(iso);
const sorted = (set: Set<number>) => [...set].sort((a, b) => a - b);

describe('parseCron', () => {
  it('reads numbers, ranges, steps, lists and names', () => {
    const cron = parseCron('*/15 9-17/4 1,15 jan-mar,dec mon-fri');
    expect(sorted(cron.minutes)).toEqual([0, 15, 30, 45]);
    expect(sorted(cron.hours)).toEqual([9, 13, 17]);
    expect(sorted(cron.days)).toEqual([1, 15]);
    expect(sorted(cron.months)).toEqual([1, 2, 3, 12]);
    expect(sorted(cron.weekdays)).toEqual([1, 2, 3, 4, 5]);
  });

  it('treats 7 as Sunday and a start with a step as running to the end', () => {
    expect(sorted(parseCron('0 0 * * 7').weekdays)).toEqual([0]);
    expect(sorted(parseCron('5/20 0 * * *').minutes)).toEqual([5, 25, 45]);
  });

  it.each([
    ['61 * * * *', 'minute: 61 is outside 0-59'],
    ['* * * *', 'must have five fields'],
    ['* * * * * *', 'must have five fields'],
    ['*/0 * * * *', 'step "0" must be a positive number'],
    ['5-1 * * * *', 'range 5-1 runs backwards'],
    ['* * 0 * *', 'day of month: 0 is outside 1-31'],
    ['* * * foo *', 'month: "foo" is not a number or a name'],
    ['1,,2 * * * *', 'is not a valid entry'],
    ['1-2-3 * * * *', 'is not a valid range'],
    ['', 'must have five fields'],
  ])('refuses %j', (expression, message) => {
    expect(() => parseCron(expression)).toThrow(CronError);
    expect(() => parseCron(expression)).toThrow(message);
  });
});

describe('cronMatches and latestSlot', () => {
  it('matches in UTC, with either day field when both are restricted', () => {
    const mondays = parseCron('0 6 * * 1');
    expect(cronMatches(mondays, at('2026-11-23T06:00:00Z'))).toBe(true); // a Monday
    expect(cronMatches(mondays, at('2026-11-24T06:00:00Z'))).toBe(false);
    const either = parseCron('0 0 1 * 1');
    expect(cronMatches(either, at('2026-12-01T00:00:00Z'))).toBe(true); // the 1st, a Tuesday
    expect(cronMatches(either, at('2026-11-30T00:00:00Z'))).toBe(true); // a Monday
    expect(cronMatches(either, at('2026-11-24T00:00:00Z'))).toBe(false);
  });

  it('finds the latest slot at or before a time, and none before the floor', () => {
    const mondays = parseCron('0 6 * * 1');
    expect(latestSlot(mondays, at('2026-11-23T06:00:30Z'), at('2026-11-01T00:00:00Z'))).toEqual(
      at('2026-11-23T06:00:00Z'),
    );
    expect(latestSlot(mondays, at('2026-11-23T05:59:00Z'), at('2026-11-01T00:00:00Z'))).toEqual(
      at('2026-11-16T06:00:00Z'),
    );
    expect(latestSlot(mondays, at('2026-11-23T05:59:00Z'), at('2026-11-20T00:00:00Z'))).toBeNull();
    const yearly = parseCron('30 12 29 feb *');
    expect(latestSlot(yearly, at('2026-11-23T00:00:00Z'), at('2020-01-01T00:00:00Z'))).toEqual(
      at('2024-02-29T12:30:00Z'),
    );
  });
});
