import fc from 'fast-check';
import { nextAttemptAt, NextAttemptParams } from './redial-planning';

const FINISHED = new Date('2026-03-11T10:00:00.000Z');
const base: NextAttemptParams = {
  finishedAt: FINISHED,
  attemptNumber: 1,
  intervalsMinutes: [5, 30, 120],
  repeatLast: false,
  callbackRequested: false,
  resetAttemptsEnabled: false,
};
const run = (p: Partial<NextAttemptParams>) => {
  const r = nextAttemptAt({ ...base, ...p });
  return { attemptCount: r.attemptCount, dueAt: r.dueAt?.toISOString() ?? null };
};

describe('nextAttemptAt', () => {
  it('n-th attempt waits intervals[n-1]', () => {
    expect(run({ attemptNumber: 1 })).toEqual({ attemptCount: 1, dueAt: '2026-03-11T10:05:00.000Z' });
    expect(run({ attemptNumber: 2 })).toEqual({ attemptCount: 2, dueAt: '2026-03-11T10:30:00.000Z' });
    expect(run({ attemptNumber: 3 })).toEqual({ attemptCount: 3, dueAt: '2026-03-11T12:00:00.000Z' });
  });

  it('past the list: stop, or repeat the last interval', () => {
    expect(run({ attemptNumber: 4 })).toEqual({ attemptCount: 4, dueAt: null });
    expect(run({ attemptNumber: 4, repeatLast: true })).toEqual({ attemptCount: 4, dueAt: '2026-03-11T12:00:00.000Z' });
    expect(run({ attemptNumber: 40, repeatLast: true })).toEqual({ attemptCount: 40, dueAt: '2026-03-11T12:00:00.000Z' });
  });

  it('empty list: never redial', () => {
    expect(run({ intervalsMinutes: [] })).toEqual({ attemptCount: 1, dueAt: null });
    expect(run({ intervalsMinutes: [], repeatLast: true })).toEqual({ attemptCount: 1, dueAt: null });
    expect(run({ intervalsMinutes: [], callbackRequested: true, resetAttemptsEnabled: true })).toEqual({
      attemptCount: 0,
      dueAt: null,
    });
  });

  it('callback with reset enabled: count back to 0, first interval, even past the list', () => {
    expect(run({ attemptNumber: 3, callbackRequested: true, resetAttemptsEnabled: true })).toEqual({
      attemptCount: 0,
      dueAt: '2026-03-11T10:05:00.000Z',
    });
    expect(run({ attemptNumber: 9, callbackRequested: true, resetAttemptsEnabled: true })).toEqual({
      attemptCount: 0,
      dueAt: '2026-03-11T10:05:00.000Z',
    });
  });

  it('callback without reset, or reset without callback: the normal ladder', () => {
    expect(run({ attemptNumber: 2, callbackRequested: true })).toEqual({ attemptCount: 2, dueAt: '2026-03-11T10:30:00.000Z' });
    expect(run({ attemptNumber: 4, callbackRequested: true })).toEqual({ attemptCount: 4, dueAt: null });
    expect(run({ attemptNumber: 2, resetAttemptsEnabled: true })).toEqual({ attemptCount: 2, dueAt: '2026-03-11T10:30:00.000Z' });
  });

  it('zero interval means immediately', () => {
    expect(run({ intervalsMinutes: [0] })).toEqual({ attemptCount: 1, dueAt: FINISHED.toISOString() });
  });

  it('rejects invalid input', () => {
    expect(() => run({ attemptNumber: 0 })).toThrow(RangeError);
    expect(() => run({ attemptNumber: 1.5 })).toThrow(RangeError);
    expect(() => run({ intervalsMinutes: [5, -1] })).toThrow(RangeError);
    expect(() => run({ intervalsMinutes: [NaN] })).toThrow(RangeError);
    expect(() => run({ finishedAt: new Date(NaN) })).toThrow(RangeError);
  });

  const paramsArb = fc.record({
    finishedAt: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }),
    attemptNumber: fc.integer({ min: 1, max: 50 }),
    intervalsMinutes: fc.array(fc.integer({ min: 0, max: 60 * 24 * 30 }), { maxLength: 10 }),
    repeatLast: fc.boolean(),
    callbackRequested: fc.boolean(),
    resetAttemptsEnabled: fc.boolean(),
  });

  it('property: dueAt >= finishedAt; attempt n uses interval n; reset and stop rules', () => {
    fc.assert(
      fc.property(paramsArb, (p) => {
        const { attemptCount, dueAt } = nextAttemptAt(p);
        const waited = dueAt === null ? null : (dueAt.getTime() - p.finishedAt.getTime()) / 60_000;
        if (dueAt !== null) expect(dueAt.getTime()).toBeGreaterThanOrEqual(p.finishedAt.getTime());
        const n = p.intervalsMinutes.length;
        if (p.callbackRequested && p.resetAttemptsEnabled) {
          expect(attemptCount).toBe(0);
          expect(waited).toBe(n > 0 ? p.intervalsMinutes[0] : null);
        } else {
          expect(attemptCount).toBe(p.attemptNumber);
          if (p.attemptNumber <= n) expect(waited).toBe(p.intervalsMinutes[p.attemptNumber - 1]);
          else if (p.repeatLast && n > 0) expect(waited).toBe(p.intervalsMinutes[n - 1]);
          else expect(waited).toBeNull();
        }
      }),
      { numRuns: 500 },
    );
  });

  it('property: a dialing sequence uses each interval once, then repeats or stops', () => {
    fc.assert(
      fc.property(paramsArb, fc.integer({ min: 1, max: 20 }), (p, calls) => {
        let at = p.finishedAt;
        let count = 0;
        const waits: number[] = [];
        for (let i = 0; i < calls; i++) {
          const r = nextAttemptAt({ ...p, finishedAt: at, attemptNumber: count + 1, callbackRequested: false });
          count = r.attemptCount;
          if (!r.dueAt) break;
          waits.push((r.dueAt.getTime() - at.getTime()) / 60_000);
          at = r.dueAt; // next call finishes the moment it is dialed
        }
        const iv = p.intervalsMinutes;
        const expected = Array.from({ length: calls }, (_, i) => (i < iv.length ? iv[i] : p.repeatLast && iv.length ? iv[iv.length - 1] : undefined));
        const cut = expected.indexOf(undefined);
        expect(waits).toEqual(cut === -1 ? expected : expected.slice(0, cut));
      }),
      { numRuns: 300 },
    );
  });
});
