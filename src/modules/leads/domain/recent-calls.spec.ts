import fc from 'fast-check';
import { laterCallAmong, RECENT_CALLS_MS, withCallStart } from './recent-calls';

const now = new Date('2026-11-28T12:00:00Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

describe('recent call starts', () => {
  it('counts a new recent call, and leaves out one older than the list reaches', () => {
    const starts = [ago(3_600_000)];
    expect(withCallStart(starts, ago(60_000), now)).toEqual([ago(3_600_000), ago(60_000)]);
    expect(withCallStart(starts, ago(RECENT_CALLS_MS), now)).toEqual(starts);
    expect(starts).toHaveLength(1);
  });

  it('tells a later call only within what the list reaches', () => {
    expect(laterCallAmong([ago(60_000)], ago(3_600_000), now)).toBe(true);
    expect(laterCallAmong([ago(3_600_000)], ago(60_000), now)).toBe(false);
    // The same start is not later.
    expect(laterCallAmong([ago(60_000)], ago(60_000), now)).toBe(false);
    expect(laterCallAmong([ago(60_000)], ago(RECENT_CALLS_MS + 1), now)).toBeUndefined();
  });

  it('answers as a query over every call of the lead would, whenever it answers', () => {
    const offset = fc.integer({ min: -3_600_000, max: 3 * RECENT_CALLS_MS });
    fc.assert(
      fc.property(fc.array(offset, { maxLength: 8 }), offset, (all, newOffset) => {
        const calls = all.map(ago);
        const startedAt = ago(newOffset);
        // What the facts hold: the calls the read lists (those after now minus the window).
        const recent = calls.filter((t) => t.getTime() > now.getTime() - RECENT_CALLS_MS);
        const answer = laterCallAmong(recent, startedAt, now);
        if (answer !== undefined) expect(answer).toBe(calls.some((t) => t.getTime() > startedAt.getTime()));
      }),
    );
  });
});
