import { FixedOffsetZone, IANAZone } from 'luxon';
import type { CallSchedule, DayWindow } from '../../orders/domain/call-schedule';
import { CallableFacts, explainCallable, localIso } from './callable';
import type { HoldReason } from '../../dialing/domain/dialing-decision';

const kolkata = IANAZone.create('Asia/Kolkata');
const weekdays: CallSchedule = [['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], ['09:00', '18:00'], [], []];
// Tuesday 10 March 2026, 12:00 in Kolkata (06:30 UTC).
const NOW = new Date('2026-03-10T06:30:00Z');

const facts = (over: Partial<CallableFacts> = {}): CallableFacts => ({
  now: NOW,
  zone: kolkata,
  orderZone: FixedOffsetZone.utcInstance,
  schedule: weekdays,
  holidays: [],
  planningCallAt: new Date('2026-03-10T04:00:00Z'),
  autoDialingEnabled: true,
  qualifiedToday: 0,
  qualifiedLeadsPerDayLimit: null,
  hold: null,
  ...over,
});
const held = (...reasons: HoldReason[]) => ({ reasons, since: NOW });

describe('explainCallable', () => {
  it('dnc (not dialing_stopped) when the decision holds the lead for a do-not-call entry; nothing next', () => {
    expect(explainCallable(facts({ planningCallAt: null, hold: held('dnc') }))).toEqual({ callableNow: false, reasons: ['dnc'], nextCallableAt: null });
    expect(explainCallable(facts({ planningCallAt: null, hold: held('dnc', 'no_consent') })).reasons).toEqual(['no_consent', 'dnc']);
  });

  it('is callable with no reasons inside hours when the planned call is due', () => {
    expect(explainCallable(facts())).toEqual({ callableNow: true, reasons: [], nextCallableAt: NOW });
  });

  it('no_schedule (and day_off) when all seven days are off; nothing next', () => {
    const off = Array.from({ length: 7 }, (): DayWindow => []);
    expect(explainCallable(facts({ schedule: off }))).toEqual({ callableNow: false, reasons: ['no_schedule', 'day_off'], nextCallableAt: null });
  });

  it('day_off on a weekday without a window: next is Monday 09:00 local', () => {
    const saturday = new Date('2026-03-14T06:30:00Z');
    const r = explainCallable(facts({ now: saturday }));
    expect(r.reasons).toEqual(['day_off']);
    expect(r.nextCallableAt).toEqual(new Date('2026-03-16T03:30:00Z'));
  });

  it("holiday on the lead's local date (not the UTC one)", () => {
    // 20:00 UTC on 9 March is 01:30 on 10 March in Kolkata.
    const r = explainCallable(facts({ now: new Date('2026-03-09T20:00:00Z'), holidays: ['2026-03-10'] }));
    expect(r.reasons).toEqual(['holiday', 'outside_hours']);
    expect(r.nextCallableAt).toEqual(new Date('2026-03-11T03:30:00Z'));
    expect(explainCallable(facts({ holidays: ['2026-03-10'] })).reasons).toEqual(['holiday']);
    // A holiday has no hours: a later planned call is not "not yet due" on it.
    expect(explainCallable(facts({ holidays: ['2026-03-10'], planningCallAt: new Date('2026-03-11T03:30:00Z') })).reasons).toEqual(['holiday']);
  });

  it('outside_hours before the window: next is 09:00 local', () => {
    const r = explainCallable(facts({ now: new Date('2026-03-10T02:00:00Z'), planningCallAt: new Date('2026-03-10T01:00:00Z') }));
    expect(r.reasons).toEqual(['outside_hours']);
    expect(r.nextCallableAt).toEqual(new Date('2026-03-10T03:30:00Z'));
  });

  it('not_yet_due inside hours when the planned call is later: next is the planned call', () => {
    const planned = new Date('2026-03-10T08:00:00Z');
    expect(explainCallable(facts({ planningCallAt: planned }))).toEqual({ callableNow: false, reasons: ['not_yet_due'], nextCallableAt: planned });
  });

  it('dialing_stopped when no call is planned; nothing next', () => {
    expect(explainCallable(facts({ planningCallAt: null }))).toEqual({ callableNow: false, reasons: ['dialing_stopped'], nextCallableAt: null });
  });

  it('no_consent instead of dialing_stopped when the decision holds the lead for consent; nothing next', () => {
    expect(explainCallable(facts({ planningCallAt: null, hold: held('no_consent') }))).toEqual({
      callableNow: false,
      reasons: ['no_consent'],
      nextCallableAt: null,
    });
  });

  it('daily_attempt_cap while the cap holds the lead; its planned call is next', () => {
    const planned = new Date('2026-03-11T04:00:00Z');
    const capped = explainCallable(facts({ planningCallAt: planned, hold: held('daily_attempt_cap') }));
    expect(capped.reasons).toContain('daily_attempt_cap');
    expect(capped.nextCallableAt).toEqual(planned);
  });

  it('order_autodialing_disabled; nothing next', () => {
    expect(explainCallable(facts({ autoDialingEnabled: false }))).toEqual({
      callableNow: false,
      reasons: ['order_autodialing_disabled'],
      nextCallableAt: null,
    });
  });

  it("qualified_limit_reached: next is in the window of the order's next day", () => {
    const r = explainCallable(facts({ qualifiedToday: 2, qualifiedLeadsPerDayLimit: 2 }));
    expect(r.reasons).toEqual(['qualified_limit_reached']);
    // The order's day (UTC) ends at 00:00Z (05:30 in Kolkata on the 11th); the window opens at 09:00 local = 03:30Z.
    expect(r.nextCallableAt).toEqual(new Date('2026-03-11T03:30:00Z'));
    expect(explainCallable(facts({ qualifiedToday: 1, qualifiedLeadsPerDayLimit: 2 })).callableNow).toBe(true);
  });

  it('lists every reason that applies', () => {
    const r = explainCallable(facts({ now: new Date('2026-03-14T06:30:00Z'), holidays: ['2026-03-14'], planningCallAt: null, autoDialingEnabled: false }));
    expect(r.reasons).toEqual(['day_off', 'holiday', 'dialing_stopped', 'order_autodialing_disabled']);
    expect(r.callableNow).toBe(false);
  });

  it('reads windows in real zone rules on a DST day (New York, 8 March 2026)', () => {
    const ny = IANAZone.create('America/New_York');
    const sunday: CallSchedule = Array.from({ length: 7 }, (): DayWindow => ['09:00', '18:00']);
    const planned = { planningCallAt: new Date('2026-03-08T00:00:00Z') };
    // 13:30Z is 09:30 EDT (inside); under the old fixed -5 it would be 08:30 (outside).
    expect(explainCallable(facts({ ...planned, zone: ny, schedule: sunday, now: new Date('2026-03-08T13:30:00Z') })).callableNow).toBe(true);
    expect(explainCallable(facts({ ...planned, zone: ny, schedule: sunday, now: new Date('2026-03-08T12:30:00Z') })).reasons).toEqual(['outside_hours']);
  });

  it('formats local time with the zone offset', () => {
    expect(localIso(NOW, kolkata)).toBe('2026-03-10T12:00:00+05:30');
    expect(localIso(NOW, IANAZone.create('America/St_Johns'))).toBe('2026-03-10T04:00:00-02:30');
    expect(localIso(NOW, FixedOffsetZone.utcInstance)).toBe('2026-03-10T06:30:00+00:00');
  });
});
