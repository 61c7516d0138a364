import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { verifyWebhook, WebhookVerificationError } from '../src';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const body = JSON.stringify({ id: 'b0f5c0de-0000-4000-8000-000000000001', type: 'lead.created', timestamp: '2026-01-01T00:00:00Z', data: { lead: { id: 1 } } });

/** Headers signed by the reference Standard Webhooks library, not by the code under test. */
function signed(secrets: string[], at = new Date(), id = 'msg_1') {
  const signature = secrets.map((s) => new Webhook(s).sign(id, at, body)).join(' ');
  return { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
}

describe('verifyWebhook', () => {
  it('accepts a delivery signed by the reference library and returns the parsed body', () => {
    expect(verifyWebhook(secret, body, signed([secret]))).toEqual(JSON.parse(body));
    expect(verifyWebhook(secret, Buffer.from(body), signed([secret]))).toEqual(JSON.parse(body));
  });

  it('takes the headers as a Fetch Headers, a record in any case or of arrays, and the body as text or bytes', () => {
    const headers = signed([secret]);
    const shapes = {
      fetch: new Headers(headers),
      record: headers,
      upperCase: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value])),
      arrays: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    };
    const bodies = { text: body, buffer: Buffer.from(body), bytes: new TextEncoder().encode(body) };
    const verified = Object.entries(shapes).flatMap(([shape, given]) =>
      Object.entries(bodies).map(([kind, raw]) => [`${shape}, ${kind}`, verifyWebhook(secret, raw, given)] as const),
    );
    expect(Object.fromEntries(verified)).toEqual(Object.fromEntries(verified.map(([what]) => [what, JSON.parse(body)])));
    expect(() => verifyWebhook(secret, body, new Headers({ ...headers, 'webhook-id': '' }))).toThrow('missing webhook-id header');
    expect(() => verifyWebhook(secret, new TextEncoder().encode(`${body} `), shapes.fetch)).toThrow('no valid signature');
  });

  it('accepts either signature during a rotation', () => {
    const previous = `whsec_${randomBytes(32).toString('base64')}`;
    const headers = signed([secret, previous]);
    expect(verifyWebhook(secret, body, headers)).toEqual(JSON.parse(body));
    expect(verifyWebhook(previous, body, headers)).toEqual(JSON.parse(body));
  });

  it('refuses another secret, a changed body, a changed id, a stale timestamp and missing headers', () => {
    const headers = signed([secret]);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    expect(() => verifyWebhook(other, body, headers)).toThrow(new WebhookVerificationError('no valid signature'));
    expect(() => verifyWebhook(secret, body.replace('lead.created', 'lead.updated'), headers)).toThrow('no valid signature');
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-id': 'msg_2' })).toThrow('no valid signature');
    const old = signed([secret], new Date(Date.now() - 10 * 60_000));
    expect(() => verifyWebhook(secret, body, old)).toThrow('webhook-timestamp outside the tolerance');
    expect(verifyWebhook(secret, body, old, { toleranceSeconds: 3600 })).toEqual(JSON.parse(body));
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-signature': undefined })).toThrow('missing webhook-signature header');
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-timestamp': '12a' })).toThrow('malformed webhook-timestamp');
    expect(() => verifyWebhook(secret, body, { ...headers, 'webhook-signature': 'v2,' + headers['webhook-signature'].slice(3) })).toThrow('no valid signature');
  });

  it('agrees with the reference verifier on the same headers', () => {
    const headers = signed([secret]);
    expect(verifyWebhook(secret, body, headers)).toEqual(new Webhook(secret).verify(body, headers));
  });
});
