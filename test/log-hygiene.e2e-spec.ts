import { ArgumentsHost, Logger, LoggerService } from '@nestjs/common';
import { Client } from 'pg';
import request from 'supertest';
import { QueryFailedError } from 'typeorm';
import { ApiExceptionFilter } from '../src/common/http-exception.filter';
import { keyPrefix } from '../src/modules/auth/domain/api-key';
import { createLeadOrder, leadBody, testPhone, TestOrder } from './factories/leads';
import { createTestApp, TestApp } from './support/test-app';

/** Everything the process logs while this file runs: Nest's Logger (TypeORM's logger writes through it), console, stdout and stderr. */
class LogCapture implements LoggerService {
  readonly lines: string[] = [];
  private readonly restore: (() => void)[] = [];

  private push(level: string, args: unknown[]): void {
    this.lines.push(`${level} ${args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' ')}`);
  }

  log = (...a: unknown[]) => this.push('log', a);
  error = (...a: unknown[]) => this.push('error', a);
  warn = (...a: unknown[]) => this.push('warn', a);
  debug = (...a: unknown[]) => this.push('debug', a);
  verbose = (...a: unknown[]) => this.push('verbose', a);
  fatal = (...a: unknown[]) => this.push('fatal', a);

  start(): void {
    // Every level, whatever the test app's log levels: a debug line must be as clean as an error line.
    Logger.overrideLogger(this);
    for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      const spy = jest.spyOn(console, method).mockImplementation((...a: unknown[]) => this.push(`console.${method}`, a));
      this.restore.push(() => spy.mockRestore());
    }
    for (const stream of [process.stdout, process.stderr]) {
      const spy = jest.spyOn(stream, 'write').mockImplementation((chunk: unknown) => {
        this.push('stream', [String(chunk)]);
        return true;
      });
      this.restore.push(() => spy.mockRestore());
    }
  }

  stop(): void {
    for (const undo of this.restore.splice(0)) undo();
  }

  text(): string {
    return this.lines.join('\n');
  }
}

const capture = new LogCapture();
/** Values that must never appear in a log line. */
const secrets = new Set<string>();

function secret<T extends string>(value: T): T {
  secrets.add(value);
  // Call.clientPhone and some logs write phones without the plus.
  if (value.startsWith('+')) secrets.add(value.slice(1));
  return value;
}

let seq = 0;
/** A lead body whose phone, name, comment and CRM id are all registered secrets. */
function privateLead(order: TestOrder, extra: Record<string, unknown> = {}) {
  seq += 1;
  const person = { phone: secret(testPhone()), name: secret(`Зинаида Квакенбуш ${seq}`) };
  return {
    ...leadBody(order, {
      sourceComment: secret(`called back about flat ${seq}00 at Lenina street`),
      externalIdCrmA: secret(`crm-a-private-${seq}-x9`),
      ...extra,
    }),
    ...person,
  };
}

const ZONE_IP = secret(`fe80::1%${'q'.repeat(100)}`);

function expectNothingPrivateLogged(): void {
  const logged = capture.text();
  for (const s of secrets) expect(logged).not.toContain(s);
  // API key material: the `cck_` prefix of every key and 64-hex SHA-256 hashes (also of keys whose insert failed).
  expect(logged).not.toMatch(/cck_/);
  expect(logged).not.toMatch(/[0-9a-f]{64}/);
  // PostgreSQL details that quote values.
  expect(logged).not.toMatch(/Key \(|Failing row contains|invalid input syntax for type/);
}

describe('log hygiene: no personal data, key material or query parameters in logs; outages logged once', () => {
  let t: TestApp;
  let order: TestOrder;

  beforeAll(async () => {
    capture.start();
    t = await createTestApp();
    order = await createLeadOrder(t);
  });

  afterAll(async () => {
    await t.close();
    capture.stop();
  });

  it('a duplicate e-mail on user create is a 409 and its e-mail is not logged', async () => {
    const email = secret(`hygiene.person.${process.pid}@example.com`);
    const body = { email, name: secret('Евлампия'), lastName: secret('Сидоровская') };
    await request(t.http).post('/v2/user/create/').set('X-Api-Key', t.apiKey).send(body).expect(200);
    await request(t.http)
      .post('/v2/user/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ ...body, email: email.toUpperCase() })
      .expect(409);
    secret(email.toUpperCase());
    expectNothingPrivateLogged();
  });

  it('an API key name conflict is a 409 and neither key prefix nor hash is logged', async () => {
    const first = await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ name: 'hygiene-crm', scopes: ['api'] })
      .expect(200);
    const key = secret(first.body.data.key as string);
    secret(keyPrefix(key));
    await request(t.http)
      .post('/v2/api-key/create/')
      .set('X-Api-Key', t.apiKey)
      .send({ name: 'hygiene-crm', scopes: ['api'] })
      .expect(409);
    expectNothingPrivateLogged();
  });

  it('a lead whose ip PostgreSQL refuses is a 400 naming the field, never echoing the value or logging the lead', async () => {
    const res = await request(t.http)
      .post('/v2/lead/create/')
      .set('X-Api-Key', t.apiKey)
      .send(privateLead(order, { ip: ZONE_IP }))
      .expect(400);
    // Refused by the input checks or, behind them, by PostgreSQL (22P02): either way the field, not the value.
    expect(res.body.success).toBe(false);
    expect(res.body.data.errors).toEqual([expect.objectContaining({ field: 'ip' })]);
    expect(JSON.stringify(res.body)).not.toContain('qqqq');
    expect(await t.ds.query(`SELECT 1 FROM lead WHERE ip IS NOT NULL AND order_id = $1`, [order.id])).toEqual([]);
    expectNothingPrivateLogged();
  });

  it('the filter answers a real data exception from PostgreSQL with 400 naming the column, and logs it without values', async () => {
    // lead.ip is varchar(45): a zone id makes the address longer (22001, value too long), as it reached the database before the DTO bound.
    const lead = privateLead(order);
    const err = await t.ds
      .query(`INSERT INTO lead (order_id, name, phone, lead_type, utc_offset, ip) VALUES ($1, $2, $3, 'straight', 3, $4)`, [
        order.id,
        lead.name,
        lead.phone,
        ZONE_IP,
      ])
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).toBeInstanceOf(QueryFailedError);
    expect((err as QueryFailedError & { code: string }).code).toMatch(/^22/);
    const sent: { status?: number; body?: unknown } = {};
    const res = { headersSent: false, setHeader: () => undefined, status: (s: number) => ((sent.status = s), { json: (b: unknown) => (sent.body = b) }) };
    const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ requestId: 'hygiene-22xxx' }) }) } as unknown as ArgumentsHost;
    new ApiExceptionFilter(t.ds).catch(err, host);
    expect(sent).toEqual({
      status: 400,
      body: {
        success: false,
        message: 'Invalid input: ip: is longer than 45 characters',
        data: { errors: [{ field: 'ip', message: 'is longer than 45 characters' }] },
      },
    });
    expect(capture.text()).toMatch(
      /input refused by the database: QueryFailedError 22001 string_data_right_truncation type=character varying\(45\) in INSERT INTO lead #[0-9a-f]{8} \[request hygiene-22xxx\]/,
    );
    expectNothingPrivateLogged();
  });

  it('an outage (every backend terminated mid-request) answers 503, never 500, and is logged once down and once up per source', async () => {
    const dbName = new URL(t.databaseUrl).pathname.slice(1);
    const admin = new Client({ connectionString: t.databaseUrl.replace(`/${dbName}`, '/postgres') });
    await admin.connect();
    const statuses: number[] = [];
    const send = (path: string, body: unknown) =>
      request(t.http)
        .post(path)
        .set('X-Api-Key', t.apiKey)
        .send(body as object)
        .then((r) => {
          statuses.push(r.status);
          if (r.status === 503) expect(r.headers['retry-after']).toBeDefined();
        });
    try {
      // Terminations while requests are in flight: repeat the burst until one request met one.
      for (let round = 0; round < 5 && !statuses.includes(503); round++) {
        const requests = Array.from({ length: 30 }, (_, i) => send(i % 3 === 0 ? '/v2/lead/create-async/' : '/v2/lead/create/', privateLead(order)));
        for (let k = 0; k < 6; k++) {
          await new Promise((r) => setTimeout(r, 25));
          await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [dbName]);
        }
        await Promise.all(requests);
      }
    } finally {
      await admin.end();
    }
    expect(statuses).toContain(503);
    expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);

    // The service recovers by itself, and says so once per source that said it was down. An idle pooled connection the last
    // termination closed leaves the pool when its socket's end arrives: a moment for those to arrive first.
    await new Promise((r) => setTimeout(r, 500));
    await request(t.http).post('/v2/lead/create/').set('X-Api-Key', t.apiKey).send(privateLead(order)).expect(200);
    const count = (re: RegExp) => {
      const bySource = new Map<string, number>();
      for (const line of capture.lines) {
        const m = re.exec(line);
        if (m) bySource.set(m[1], (bySource.get(m[1]) ?? 0) + 1);
      }
      return bySource;
    };
    const down = () => count(/^\w+ (\S+): database unreachable \(/);
    const up = () => count(/^\w+ (\S+): database reachable again after \d+s/);
    const deadline = Date.now() + 15_000;
    while (Date.now() < deadline && [...down().keys()].some((source) => !up().has(source))) await new Promise((r) => setTimeout(r, 200));
    expect(down().get('database')).toBe(1);
    for (const [source, n] of down()) {
      expect([source, n]).toEqual([source, 1]);
      expect([source, up().get(source)]).toEqual([source, 1]);
    }
    // No other line reports the lost connections one by one (pg-boss's workers, TypeORM, the filter).
    const perFailure = capture.lines.filter(
      (l) =>
        /terminating connection|Connection terminated|administrator command|57P01|ECONNREFUSED/i.test(l) &&
        !/database unreachable \(/.test(l) &&
        !/^debug /.test(l),
    );
    expect(perFailure).toEqual([]);
    expectNothingPrivateLogged();
  });
});
