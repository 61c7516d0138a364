import { calledNumber } from './opt-out';

describe('calledNumber', () => {
  it('is the clientPhone in E.164, with or without +', () => {
    expect(calledNumber('79161234567')).toEqual({ ok: true, phone: '+79161234567' });
    expect(calledNumber('+79161234567')).toEqual({ ok: true, phone: '+79161234567' });
  });

  it("is null without a clientPhone (the lead's phone stands in)", () => {
    expect(calledNumber(undefined)).toEqual({ ok: true, phone: null });
  });

  it('names clientPhone when it is no valid number', () => {
    const r = calledNumber('12345');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors).toEqual([{ field: 'clientPhone', message: expect.stringContaining('number called') }]);
  });
});
