import fc from 'fast-check';
import { IANAZone } from 'luxon';
import { orderDayBounds } from '../../leads/domain/qualified-limit';
import { nextCallableAt } from '../../orders/domain/callable-time';
import { decideDialing, type DialingFacts, type DialingRules, holdAt } from './dialing-decision';

const NINE_TO_SIX = Array.from({ length: 7 }, () => ['09:00', '18:00'] as [string, string]);
const ORDER: DialingRules = {
  callSchedule: NINE_TO_SIX,
  holidays: [],
  ignoreLeadTimezone: false,
  defaultUtcOffset: 0,
  consentRequired: false,
  maxAttemptsPerDay: null,
};
// 2026-03-11 12:00 in Kolkata (06:30Z), a Wednesday.
const NOW = new Date('2026-03-11T06:30:00Z');
const KOLKATA = IANAZone.create('Asia/Kolkata');

function facts(
  over: Partial<Omit<DialingFacts, 'lead' | 'order'>> & { lead?: Partial<DialingFacts['lead']>; order?: Partial<DialingRules> } = {},
): DialingFacts {
  return {
    now: NOW,
    dncListed: false,
    callStarts: [],
    previousHold: null,
    ...over,
    order: { ...ORDER, ...over.order },
    lead: { timeZone: 'Asia/Kolkata', utcOffset: 5, hasConsent: false, dialAfter: NOW, ...over.lead },
  };
}

describe('decideDialing', () => {
  it('plans a wanted lead now inside its window, at the window outside it', () => {
    expect(decideDialing(facts())).toEqual({ planningCallAt: NOW, hold: null, capUntil: null });
    // 20:00 in Kolkata: tomorrow 09:00 (03:30Z).
    const evening = new Date('2026-03-11T14:30:00Z');
    expect(decideDialing(facts({ now: evening, lead: { dialAfter: evening } })).planningCallAt).toEqual(new Date('2026-03-12T03:30:00Z'));
  });

  it('keeps an explicit later moment, and moves it into the window', () => {
    const later = new Date('2026-03-13T02:00:00Z'); // 07:30 local: the window opens at 09:00
    expect(decideDialing(facts({ lead: { dialAfter: later } })).planningCallAt).toEqual(new Date('2026-03-13T03:30:00Z'));
  });

  it('keeps a stored moment that still holds: due before now and due now, or the same moment', () => {
    const earlier = new Date('2026-03-11T05:00:00Z');
    expect(decideDialing(facts({ previousPlan: earlier })).planningCallAt).toEqual(earlier);
    // Out of the window now (20:00 local): the stored past moment moves to the next window.
    const evening = new Date('2026-03-11T14:30:00Z');
    expect(decideDialing(facts({ now: evening, previousPlan: earlier, lead: { dialAfter: earlier } })).planningCallAt).toEqual(
      new Date('2026-03-12T03:30:00Z'),
    );
    // A later wanted moment replaces it.
    const later = new Date('2026-03-11T08:00:00Z');
    expect(decideDialing(facts({ previousPlan: earlier, lead: { dialAfter: later } })).planningCallAt).toEqual(later);
  });

  it('never plans in the past: a moment wanted before now is now', () => {
    expect(decideDialing(facts({ lead: { dialAfter: new Date('2026-03-01T00:00:00Z') } })).planningCallAt).toEqual(NOW);
  });

  it('a stopped lead stays stopped, and says what else holds it', () => {
    expect(decideDialing(facts({ lead: { dialAfter: null } }))).toEqual({ planningCallAt: null, hold: null, capUntil: null });
    expect(decideDialing(facts({ lead: { dialAfter: null }, dncListed: true }))).toEqual({
      planningCallAt: null,
      hold: { reasons: ['dnc'], since: NOW },
      capUntil: null,
    });
  });

  it('holds a listed number and missing consent, every reason at once, keeping since', () => {
    const since = new Date('2026-03-01T00:00:00Z');
    const d = decideDialing(facts({ dncListed: true, order: { consentRequired: true }, previousHold: { reasons: ['dnc'], since } }));
    expect(d).toEqual({ planningCallAt: null, hold: { reasons: ['dnc', 'no_consent'], since }, capUntil: null });
    expect(decideDialing(facts({ order: { consentRequired: true }, lead: { hasConsent: true } })).hold).toBeNull();
    expect(decideDialing(facts({ order: { consentRequired: true } })).hold).toEqual({ reasons: ['no_consent'], since: NOW });
  });

  it("at the daily cap: the next local day's window, counting only today's calls", () => {
    const today = [new Date('2026-03-11T04:00:00Z'), new Date('2026-03-11T05:00:00Z')];
    const yesterday = [new Date('2026-03-10T10:00:00Z'), new Date('2026-03-10T11:00:00Z')];
    const capped = decideDialing(facts({ order: { maxAttemptsPerDay: 2 }, callStarts: today }));
    // Kolkata's Thursday starts at 18:30Z; its window at 03:30Z.
    expect(capped).toEqual({
      planningCallAt: new Date('2026-03-12T03:30:00Z'),
      hold: { reasons: ['daily_attempt_cap'], since: NOW },
      capUntil: new Date('2026-03-11T18:30:00Z'),
    });
    // A late record of an earlier day does not clear today's cap, nor does it count today.
    expect(decideDialing(facts({ order: { maxAttemptsPerDay: 2 }, callStarts: [...today, ...yesterday] })).planningCallAt).toEqual(capped.planningCallAt);
    expect(decideDialing(facts({ order: { maxAttemptsPerDay: 2 }, callStarts: yesterday })).planningCallAt).toEqual(NOW);
    // An explicit moment today is bounded by the cap; one on a later day is not capped.
    const tonight = new Date('2026-03-11T10:00:00Z');
    expect(decideDialing(facts({ order: { maxAttemptsPerDay: 2 }, callStarts: today, lead: { dialAfter: tonight } })).planningCallAt).toEqual(
      capped.planningCallAt,
    );
    const saturday = new Date('2026-03-14T06:00:00Z');
    expect(decideDialing(facts({ order: { maxAttemptsPerDay: 2 }, callStarts: today, lead: { dialAfter: saturday } }))).toEqual({
      planningCallAt: saturday,
      hold: null,
      capUntil: null,
    });
  });

  it('plans in real zone rules on the days DST starts and ends (America/New_York, 09:00-18:00)', () => {
    const ny = (now: string, due: string) =>
      decideDialing(facts({ now: new Date(now), lead: { timeZone: 'America/New_York', dialAfter: new Date(due) } })).planningCallAt?.toISOString();
    // Due 07:00Z = 03:00 EDT, just after the clocks jumped: the window opens at 09:00 EDT.
    expect(ny('2026-03-08T06:00:00Z', '2026-03-08T07:00:00Z')).toBe('2026-03-08T13:00:00.000Z');
    // Due 06:00Z = 01:00 EST (after the fall back): 09:00 EST.
    expect(ny('2026-11-01T05:00:00Z', '2026-11-01T06:00:00Z')).toBe('2026-11-01T14:00:00.000Z');
    // Due 22:30Z on 8 March = 18:30 EDT, after the window: 09:00 EDT the next day.
    expect(ny('2026-03-08T21:30:00Z', '2026-03-08T22:30:00Z')).toBe('2026-03-09T13:00:00.000Z');
    // Inside the window: due as is (17:59 EDT is 21:59Z).
    expect(ny('2026-03-08T20:59:00Z', '2026-03-08T21:59:00Z')).toBe('2026-03-08T21:59:00.000Z');
  });

  it('a schedule without a callable day plans nothing', () => {
    const off = Array.from({ length: 7 }, () => [] as []);
    expect(decideDialing(facts({ order: { callSchedule: off } }))).toEqual({ planningCallAt: null, hold: null, capUntil: null });
  });

  it('holdAt drops a cap whose day has ended', () => {
    const hold = { reasons: ['daily_attempt_cap' as const], since: NOW };
    expect(holdAt(hold, new Date('2026-03-11T18:30:00Z'), NOW)).toEqual(hold);
    expect(holdAt(hold, new Date('2026-03-11T18:30:00Z'), new Date('2026-03-11T19:00:00Z'))).toBeNull();
    expect(holdAt({ reasons: ['dnc', 'daily_attempt_cap'], since: NOW }, null, NOW)).toEqual({ reasons: ['dnc'], since: NOW });
  });

  it('properties: held means unplanned; planned means in a window, not before now or the wanted moment, and under the cap', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2024-01-01'), max: new Date('2028-01-01'), noInvalidDate: true }),
        fc.option(fc.integer({ min: -3 * 86_400_000, max: 5 * 86_400_000 }), { nil: null }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 4 }), { nil: null }),
        fc.array(fc.integer({ min: 0, max: 2 * 86_400_000 }), { maxLength: 6 }),
        (now, wantedOffset, dncListed, consentRequired, hasConsent, cap, ago) => {
          const f = facts({
            now,
            dncListed,
            callStarts: ago.map((ms) => new Date(now.getTime() - ms)),
            order: { consentRequired, maxAttemptsPerDay: cap },
            lead: { hasConsent, dialAfter: wantedOffset === null ? null : new Date(now.getTime() + wantedOffset) },
          });
          const d = decideDialing(f);
          const blocked = dncListed || (consentRequired && !hasConsent);
          if (f.lead.dialAfter === null) return expect([d.planningCallAt, d.hold === null]).toEqual([null, !blocked]);
          expect(d.planningCallAt === null).toBe(blocked);
          if (d.planningCallAt === null) return expect(d.hold?.reasons.length).toBeGreaterThan(0);
          expect(d.planningCallAt.getTime()).toBeGreaterThanOrEqual(Math.max(now.getTime(), f.lead.dialAfter.getTime()));
          // In a window: planning again from the moment itself finds the moment.
          expect(nextCallableAt({ now: d.planningCallAt, schedule: NINE_TO_SIX, holidays: [], zone: KOLKATA })).toEqual(d.planningCallAt);
          const today = orderDayBounds(now, KOLKATA);
          const todays = f.callStarts.filter((s) => s >= today.start && s < today.end).length;
          if (cap !== null && todays >= cap) expect(d.planningCallAt.getTime()).toBeGreaterThanOrEqual(today.end.getTime());
          expect(d.hold === null).toBe(d.capUntil === null);
        },
      ),
    );
  });
});
