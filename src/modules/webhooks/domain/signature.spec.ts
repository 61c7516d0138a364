import { createHmac } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { generateSecret, SECRET_PREFIX, secretKey, signatureHeader, signatureOf, webhookHeaders } from './signature';

describe('webhook signatures (Standard Webhooks v1)', () => {
  it('generates whsec_ + base64 of 32 random bytes, different each time', () => {
    const a = generateSecret();
    const b = generateSecret();
    expect(a.startsWith(SECRET_PREFIX)).toBe(true);
    expect(secretKey(a)).toHaveLength(32);
    expect(Buffer.from(a.slice(SECRET_PREFIX.length), 'base64').toString('base64')).toBe(a.slice(SECRET_PREFIX.length));
    expect(a).not.toBe(b);
  });

  it('signs "{id}.{timestamp}.{body}" with HMAC-SHA256 keyed by the decoded secret', () => {
    const key = Buffer.alloc(24, 7);
    const secret = SECRET_PREFIX + key.toString('base64');
    const body = '{"id":"e1","type":"lead.created","timestamp":"2026-11-23T10:00:00+00:00","data":{}}';
    const expected = createHmac('sha256', key).update(`e1.1700000000.${body}`).digest('base64');
    expect(signatureOf(secret, 'e1', 1700000000, body)).toBe(`v1,${expected}`);
  });

  it('agrees with the official standardwebhooks library (sign, and verify of our headers)', () => {
    const secret = generateSecret();
    const body = '{"id":"e2","type":"webhook.test","timestamp":"2026-11-23T10:00:00+00:00","data":{"webhookId":1}}';
    const ts = Math.floor(Date.now() / 1000);
    const official = new Webhook(secret);
    expect(official.sign('e2', new Date(ts * 1000), body)).toBe(signatureOf(secret, 'e2', ts, body));
    expect(official.verify(body, webhookHeaders([generateSecret(), secret], 'e2', ts, body))).toEqual(JSON.parse(body));
  });

  it('puts one signature per secret in the header, space-separated', () => {
    const s1 = generateSecret();
    const s2 = generateSecret();
    const header = signatureHeader([s1, s2], 'id', 1, 'b');
    expect(header.split(' ')).toEqual([signatureOf(s1, 'id', 1, 'b'), signatureOf(s2, 'id', 1, 'b')]);
    expect(webhookHeaders([s1], 'id', 1, 'b')).toEqual({ 'webhook-id': 'id', 'webhook-timestamp': '1', 'webhook-signature': signatureOf(s1, 'id', 1, 'b') });
  });
});
