// What an integrator's code does with the installed package, the same from an ES module (esm.mjs)
// and from CommonJS (cjs.cjs): the client calls a stand-in of the service on 127.0.0.1, and
// verifyWebhook checks deliveries signed the Standard Webhooks way, with headers and bodies in
// every shape a framework hands over.
'use strict';
const assert = require('node:assert/strict');
const { createHmac, randomBytes } = require('node:crypto');
const { createServer } = require('node:http');

/**
 * The stand-in service: records each request; a lead create answers lead 42, `/hook` whatever
 * `service.hook` returns for the request, anything else a 404 envelope.
 */
function startService() {
  const service = { seen: [], hook: undefined };
  const answer = (req, raw) => {
    if (req.url === '/v2/lead/create') return { status: 200, body: { success: true, message: '', data: { id: 42 } } };
    if (req.url === '/hook') return { status: 200, body: service.hook(req, raw) };
    return { status: 404, body: { success: false, message: 'Lead not found', data: [] } };
  };
  service.server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      service.seen.push({ method: req.method, url: req.url, headers: req.headers, body: raw.toString('utf8') });
      const { status, body } = answer(req, raw);
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  return new Promise((resolve) => service.server.listen(0, '127.0.0.1', () => resolve(Object.assign(service, { port: service.server.address().port }))));
}

const sign = (secret, id, timestamp, body) =>
  `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64'))
    .update(`${id}.${timestamp}.${body}`)
    .digest('base64')}`;

async function checkClient(pkg, service) {
  const api = pkg.createCallCenterClient({ baseUrl: `http://127.0.0.1:${service.port}/`, apiKey: 'cck_package_test' });
  const lead = { leadType: 'straight', phone: '+79161234567', orderId: 1, orderCode: 'novostroyki-moskvy' };
  const created = await api.POST('/v2/lead/create', { body: lead, headers: { 'Idempotency-Key': 'crm-lead-100' } });
  assert.equal(created.response.status, 200);
  assert.deepEqual(created.data, { success: true, message: '', data: { id: 42 } });
  const sent = service.seen.at(-1);
  assert.equal(sent.method, 'POST');
  assert.equal(sent.url, '/v2/lead/create');
  assert.equal(sent.headers['x-api-key'], 'cck_package_test');
  assert.equal(sent.headers['idempotency-key'], 'crm-lead-100');
  assert.deepEqual(JSON.parse(sent.body), lead);

  const missing = await api.GET('/v2/lead/detail/{leadId}', { params: { path: { leadId: 7 } } });
  assert.equal(service.seen.at(-1).url, '/v2/lead/detail/7');
  assert.equal(missing.response.status, 404);
  assert.equal(missing.data, undefined);
  assert.deepEqual(missing.error, { success: false, message: 'Lead not found', data: [] });
}

async function checkWebhooks(pkg, service) {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const body = JSON.stringify({ id: 'evt_1', type: 'lead.created', timestamp: new Date().toISOString(), data: { lead: { id: 42 } } });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': timestamp, 'webhook-signature': sign(secret, 'msg_1', timestamp, body) };
  const expected = JSON.parse(body);
  const other = `whsec_${randomBytes(32).toString('base64')}`;

  const shapes = {
    'Fetch Headers': new Headers(headers),
    'a plain record': headers,
    'a record with other cases': Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), value])),
    'a record of arrays': Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
  };
  const bodies = { string: body, Buffer: Buffer.from(body), Uint8Array: new TextEncoder().encode(body) };
  for (const [shape, given] of Object.entries(shapes)) {
    for (const [kind, raw] of Object.entries(bodies)) {
      assert.deepEqual(pkg.verifyWebhook(secret, raw, given), expected, `${shape}, a ${kind} body`);
      assert.throws(() => pkg.verifyWebhook(other, raw, given), pkg.WebhookVerificationError, `${shape}, a ${kind} body, another secret`);
    }
  }
  assert.throws(() => pkg.verifyWebhook(secret, body, new Headers()), { name: 'WebhookVerificationError', message: 'missing webhook-id header' });

  // Node's IncomingHttpHeaders and raw Buffer body, as a node:http or Express handler gets them.
  service.hook = (req, raw) => pkg.verifyWebhook(secret, raw, req.headers);
  const delivered = await fetch(`http://127.0.0.1:${service.port}/hook`, { method: 'POST', headers, body });
  assert.equal(delivered.status, 200);
  assert.deepEqual(await delivered.json(), expected);
}

async function run(pkg, how) {
  const service = await startService();
  try {
    await checkClient(pkg, service);
    await checkWebhooks(pkg, service);
  } finally {
    service.server.close();
  }
  console.log(`${how} on Node ${process.version}: the client and verifyWebhook work`);
}

module.exports = { run };
