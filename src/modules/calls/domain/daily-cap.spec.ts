import fc from 'fast-check';
import { FixedOffsetZone, IANAZone } from 'luxon';
import { applyDailyCap, leadDayBounds } from './daily-cap';

const NINE_TO_SIX = Array.from({ length: 7 }, () => ['09:00', '18:00'] as [string, string]);
const ZONE = IANAZone.create('Asia/Kolkata');
// 2026-03-11 12:00 in Kolkata (06:30Z), a Wednesday.
const AT = new Date('2026-03-11T06:30:00Z');

describe('daily attempt cap', () => {
  const window = { schedule: NINE_TO_SIX, holidays: [] as string[], zone: ZONE };

  it('keeps the plan below the cap and without one', () => {
    const planned = new Date('2026-03-11T07:00:00Z');
    expect(applyDailyCap({ planned, callsToday: 2, maxAttemptsPerDay: 3, at: AT, window })).toEqual({ planningCallAt: planned, capUntil: null });
    expect(applyDailyCap({ planned, callsToday: 9, maxAttemptsPerDay: null, at: AT, window })).toEqual({ planningCallAt: planned, capUntil: null });
    expect(applyDailyCap({ planned: null, callsToday: 3, maxAttemptsPerDay: 3, at: AT, window })).toEqual({ planningCallAt: null, capUntil: null });
  });

  it("at the cap: the next local day's window, skipping a holiday", () => {
    const planned = new Date('2026-03-11T07:00:00Z');
    // Thursday 09:00 in Kolkata = 03:30Z; the day starts at 18:30Z the day before.
    expect(applyDailyCap({ planned, callsToday: 3, maxAttemptsPerDay: 3, at: AT, window })).toEqual({
      planningCallAt: new Date('2026-03-12T03:30:00Z'),
      capUntil: new Date('2026-03-11T18:30:00Z'),
    });
    const holiday = applyDailyCap({ planned, callsToday: 3, maxAttemptsPerDay: 3, at: AT, window: { ...window, holidays: ['2026-03-12'] } });
    expect(holiday.planningCallAt).toEqual(new Date('2026-03-13T03:30:00Z'));
  });

  it('never plans a capped lead on the day of the call (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }),
        fc.integer({ min: -12, max: 14 }),
        fc.integer({ min: 0, max: 3 * 86_400_000 }),
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 60 }),
        (at, offset, ahead, max, calls) => {
          const zone = FixedOffsetZone.instance(offset * 60);
          const planned = new Date(at.getTime() + ahead);
          const r = applyDailyCap({ planned, callsToday: calls, maxAttemptsPerDay: max, at, window: { schedule: NINE_TO_SIX, holidays: [], zone } });
          if (calls < max) expect(r.planningCallAt).toEqual(planned);
          else expect(r.planningCallAt!.getTime()).toBeGreaterThanOrEqual(leadDayBounds(at, zone).end.getTime());
        },
      ),
    );
  });
});
