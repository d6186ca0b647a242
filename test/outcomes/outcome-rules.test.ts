import {
  clickThroughChange,
  helpfulChange,
  MIN_READERS,
  MIN_SEARCHES,
  missChange,
  trafficChange,
  verdictOf,
} from '../../src/outcomes/outcome-rules.js';

describe('outcome rules', () => {
  it('reads traffic only with enough readers on both sides, and a change of 20% either way', () => {
    expect(trafficChange(MIN_READERS - 1, 500)).toBe('too little data');
    expect(trafficChange(500, MIN_READERS - 1)).toBe('too little data');
    expect(trafficChange(100, 200)).toBe('improved');
    expect(trafficChange(100, 119)).toBe('no change');
    expect(trafficChange(120, 100)).toBe('worse');
  });

  it('counts misses that stop as improved and misses that grow as worse', () => {
    expect(missChange(9, 0)).toBe('too little data');
    expect(missChange(40, 0)).toBe('improved');
    expect(missChange(40, 30)).toBe('no change');
    expect(missChange(40, 80)).toBe('worse');
  });

  it('compares the helpful share with enough thumbs on both sides', () => {
    expect(helpfulChange({ up: 2, down: 2 }, { up: 20, down: 0 })).toBe('too little data');
    expect(helpfulChange({ up: 5, down: 5 }, { up: 8, down: 2 })).toBe('improved');
    expect(helpfulChange({ up: 5, down: 5 }, { up: 5, down: 6 })).toBe('no change');
    expect(helpfulChange({ up: 8, down: 2 }, { up: 5, down: 5 })).toBe('worse');
    // a move of exactly a tenth counts, though 0.4 − 0.5 is not −0.1 in floating point
    expect(helpfulChange({ up: 5, down: 5 }, { up: 4, down: 6 })).toBe('worse');
    expect(helpfulChange({ up: 4, down: 6 }, { up: 5, down: 5 })).toBe('improved');
  });

  it("reads a search gap's click-through with enough searches on both sides, moved by a tenth either way", () => {
    expect(clickThroughChange({ searches: MIN_SEARCHES - 1, clicks: 0 }, { searches: 50, clicks: 50 })).toBe(
      'too little data',
    );
    expect(clickThroughChange({ searches: 20, clicks: 0 }, { searches: MIN_SEARCHES - 1, clicks: 9 })).toBe(
      'too little data',
    );
    expect(clickThroughChange({ searches: 20, clicks: 0 }, { searches: 10, clicks: 1 })).toBe('improved');
    expect(clickThroughChange({ searches: 20, clicks: 4 }, { searches: 20, clicks: 5 })).toBe('no change');
    expect(clickThroughChange({ searches: 10, clicks: 5 }, { searches: 10, clicks: 4 })).toBe('worse');
  });

  it('judges helped, regressed, no effect, or too little traffic to tell', () => {
    expect(verdictOf(['improved', 'no change', 'too little data'])).toBe('helped');
    expect(verdictOf(['worse', 'no change'])).toBe('regressed');
    expect(verdictOf(['improved', 'worse'])).toBe('no effect');
    expect(verdictOf(['no change', 'too little data'])).toBe('no effect');
    expect(verdictOf(['too little data', 'too little data'])).toBe('too little traffic to tell');
  });
});
