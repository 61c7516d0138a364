import { checkConsent, consentAllowsCalls, planningAfterConsent } from './consent';

const now = new Date('2026-11-26T12:00:00Z');

describe('consent', () => {
  it('accepts and normalises a valid consent', () => {
    const r = checkConsent({ givenAt: '2026-11-26T14:00:00+03:00', source: 'web_form', evidenceUrl: 'https://cert.example/1', token: 't' }, now);
    expect(r).toEqual({
      ok: true,
      value: { givenAt: '2026-11-26T11:00:00.000Z', source: 'web_form', evidenceUrl: 'https://cert.example/1', token: 't', text: null },
    });
  });

  it('rejects a future or malformed givenAt, an unknown source, a non-https URL and long fields, all at once', () => {
    const r = checkConsent(
      { givenAt: '2026-11-26T12:00:01Z', source: 'fax', evidenceUrl: 'http://cert.example/1', token: 'x'.repeat(256), text: 'y'.repeat(4001) },
      now,
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.errors.map((e) => e.field)).toEqual(['consent.givenAt', 'consent.source', 'consent.evidenceUrl', 'consent.token', 'consent.text']);
    expect(checkConsent({ givenAt: '2026-11-26', source: 'sms' }, now).ok).toBe(false);
    expect(checkConsent({ givenAt: 'yesterday', source: 'sms' }, now).ok).toBe(false);
    expect(checkConsent({ givenAt: '2026-11-26T12:00:00Z', source: 'sms', evidenceUrl: `https://a.example/${'a'.repeat(2031)}` }, now).ok).toBe(false);
  });

  it('lets a lead be called without consent only when the order does not require it', () => {
    const consent = { givenAt: now.toISOString(), source: 'sms' as const, evidenceUrl: null, token: null, text: null };
    expect(consentAllowsCalls({ consentRequired: false }, null)).toBe(true);
    expect(consentAllowsCalls({ consentRequired: true }, null)).toBe(false);
    expect(consentAllowsCalls({ consentRequired: true }, consent)).toBe(true);
  });
});

describe('planningAfterConsent', () => {
  const consent = { givenAt: now.toISOString(), source: 'sms' as const, evidenceUrl: null, token: null, text: null };
  const plan = () => now;
  it('stops on withdrawal and plans on a first consent, when the order requires consent', () => {
    expect(planningAfterConsent({ consentRequired: true }, consent, null, plan)).toBeNull();
    expect(planningAfterConsent({ consentRequired: true }, null, consent, plan)).toBe(now);
    expect(planningAfterConsent({ consentRequired: true }, consent, consent, plan)).toBeUndefined();
    expect(planningAfterConsent({ consentRequired: false }, consent, null, plan)).toBeUndefined();
  });
});
