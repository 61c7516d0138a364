import request from 'supertest';
import { createTestApp, TestApp } from './support/test-app';

function expectSecurityHeaders(headers: Record<string, string | undefined>): void {
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['x-frame-options']).toBe('SAMEORIGIN');
  expect(headers['strict-transport-security']).toMatch(/max-age=\d+/);
  expect(headers['content-security-policy']).toContain("default-src 'self'");
  expect(headers['referrer-policy']).toBe('no-referrer');
  expect(headers['x-powered-by']).toBeUndefined();
}

describe('security headers (helmet), CORS off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('are on an API response, an error and an unknown path', async () => {
    expectSecurityHeaders((await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).expect(200)).headers);
    expectSecurityHeaders((await request(t.http).get('/v2/user/list/').expect(401)).headers);
    expectSecurityHeaders((await request(t.http).get('/no/such/path').set('X-Api-Key', t.apiKey).expect(404)).headers);
  });

  it('are on /docs, whose page and assets still load under the policy', async () => {
    const page = await request(t.http).get('/docs').redirects(1).expect(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expectSecurityHeaders(page.headers);
    // Swagger UI's page styles itself inline and loads its scripts from /docs: the policy allows exactly that.
    const csp = page.headers['content-security-policy'];
    expect(csp).toMatch(/style-src 'self' 'unsafe-inline'/);
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('upgrade-insecure-requests');
    const scripts = page.text.match(/src="[^"]+\.js"/g) ?? [];
    expect(scripts.length).toBeGreaterThanOrEqual(3);
    for (const src of scripts) {
      // Resolved as the browser does, against the page's URL.
      await request(t.http)
        .get(new URL(src.slice(5, -1), 'http://localhost/docs').pathname)
        .expect(200);
    }
    expect(page.text).not.toMatch(/<script>(?!\s*<\/script>)/);
  });

  it('answers no CORS headers unless CORS_ORIGINS lists the origin', async () => {
    const res = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).set('Origin', 'https://crm.example.com').expect(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const preflight = await request(t.http).options('/v2/user/list/').set('Origin', 'https://crm.example.com').set('Access-Control-Request-Method', 'GET');
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('CORS_ORIGINS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0', CORS_ORIGINS: 'https://crm.example.com, https://admin.example.com' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('allows the listed origins only', async () => {
    const allowed = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).set('Origin', 'https://admin.example.com').expect(200);
    expect(allowed.headers['access-control-allow-origin']).toBe('https://admin.example.com');
    const preflight = await request(t.http)
      .options('/v2/user/list/')
      .set('Origin', 'https://crm.example.com')
      .set('Access-Control-Request-Method', 'GET')
      .set('Access-Control-Request-Headers', 'x-api-key');
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://crm.example.com');
    const other = await request(t.http).get('/v2/user/list/').set('X-Api-Key', t.apiKey).set('Origin', 'https://evil.example.com').expect(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
  });
});
