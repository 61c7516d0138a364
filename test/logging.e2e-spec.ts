import { Logger } from '@nestjs/common';
import request from 'supertest';
import { loggerParams, createAppLogger, textLine } from '../src/modules/observability/logging';
import { createTestApp, TestApp } from './support/test-app';

/** The pino lines the process writes to stdout while `fn` runs (parsed), nothing printed. */
async function stdoutLines(fn: () => unknown): Promise<Record<string, unknown>[]> {
  const raw: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    raw.push(String(chunk));
    return true;
  });
  try {
    await fn();
    await new Promise((r) => setImmediate(r));
  } finally {
    spy.mockRestore();
  }
  return raw
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('logs through pino (LOG_FORMAT=json)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ WORKERS: '0', LOG_FORMAT: 'json' });
    // What main.ts installs; the test app otherwise keeps Nest's console logger at level error.
    t.app.useLogger(createAppLogger(loggerParams(t.config)));
  });
  afterAll(async () => {
    Logger.overrideLogger(['error']);
    await t.close();
  });

  it('writes one JSON object per line, and every line of a request carries its id', async () => {
    // An unexpected failure inside the request (the users table is missing): the failed statement
    // and the exception filter log it, then the access line follows.
    await t.ds.query(`ALTER TABLE app_user RENAME TO app_user_away`);
    let lines: Record<string, unknown>[];
    try {
      lines = await stdoutLines(() =>
        request(t.http).get('/v2/user/list/?email=x@example.com').set('X-Api-Key', t.apiKey).set('X-Request-Id', 'pino-1').expect(500),
      );
    } finally {
      await t.ds.query(`ALTER TABLE app_user_away RENAME TO app_user`);
    }
    const ofRequest = lines.filter((l) => JSON.stringify(l).includes('pino-1'));
    expect(ofRequest.map((l) => [l.level, l.context])).toEqual([
      ['error', 'Database'],
      ['error', 'ApiExceptionFilter'],
      ['info', 'HTTP'],
    ]);
    for (const line of ofRequest) {
      expect(line.requestId).toBe('pino-1');
      expect(typeof line.time).toBe('string');
    }
    expect(ofRequest[2]).toMatchObject({ method: 'GET', path: '/v2/user/list/?email=', status: 500, apiKeyId: expect.any(Number) });
    // The bound id is written once per line, not repeated by the access line's own field.
    expect(lines.every((l) => Object.keys(l).length === new Set(Object.keys(l)).size)).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('x@example.com');
  });

  it('redacts key material, credentials and bodies from objects logged by hand', async () => {
    const lines = await stdoutLines(() => {
      new Logger('Probe').log({
        msg: 'probe',
        req: { headers: { 'x-api-key': 'cck_secret', authorization: 'Bearer s3cret', cookie: 'sid=1' }, body: { phone: '+79991234567' } },
        headers: { 'x-api-key': 'cck_other' },
        body: { name: 'Secret Sam' },
      });
    });
    const text = JSON.stringify(lines);
    for (const secret of ['cck_secret', 's3cret', 'sid=1', '79991234567', 'cck_other', 'Secret Sam']) expect(text).not.toContain(secret);
    expect(lines[0]).toMatchObject({ context: 'Probe', headers: { 'x-api-key': '[redacted]' }, body: '[redacted]' });
  });

  it("keeps Nest's start-up chatter (one line per module and route) out of the default level", async () => {
    const lines = await stdoutLines(() => {
      new Logger('RouterExplorer').log('Mapped {/v2/user/list, GET} route');
      new Logger('Bootstrap').log('listening');
    });
    expect(lines.map((l) => l.context)).toEqual(['Bootstrap']);
  });
});

describe('LOG_FORMAT=text', () => {
  it('is one plain line per event: no ANSI colour codes, the request id at the end', () => {
    const line = textLine(
      JSON.stringify({ level: 'warn', time: '2026-01-01T00:00:00.000Z', context: 'HTTP', msg: 'GET / 200', requestId: 'r-1', status: 200 }),
    );
    expect(line).toBe('2026-01-01T00:00:00.000Z WARN  [HTTP] GET / 200 status=200 requestId=r-1\n');
    expect(line).not.toContain('\u001b[');
  });
});
