import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { newApiKey } from './support/fixtures';
import { HttpResult } from './support/http';
import { writeNeedles, LOG_DIR, Needles, readAllNeedles, runState, writeFigures } from './support/run-dir';
import { Scenario, startScenario } from './support/scenario';

/**
 * The whole run's service output (results/logs/*.log) carries no phone, name, e-mail or key material the suite sent, nor
 * query parameter values. Runs last, after driving the paths most prone to leak: e-mail and API-key-name conflicts
 * (sequential and racing), a query string with a phone, an API_KEY rotation.
 */

type Category = 'phone' | 'name' | 'email' | 'key material' | 'query string';
const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;

interface Hit {
  category: Category;
  file: string;
  line: number;
  /** The line with what was found replaced by <category>: the report itself carries nothing personal. */
  redacted: string;
}

let s: Scenario;
const conflicts: Record<string, number[]> = {};
let rotationStarted: boolean | undefined;
let hits: Hit[] = [];
const scanned = { files: 0, lines: 0, bytes: 0 };

const GENERATED_KEY = /cck_[A-Za-z0-9_-]{8,}/g;
const SHA256_HEX = /\b[0-9a-f]{64}\b/g;
const NAME_MARK = /Zelvanor|Quibrent/gi;
const LOGGED_QUERY = /\b(?:GET|POST|PUT|PATCH|DELETE|HEAD) \/\S*\?(\S+)/g;
/** A logged query string carries values unless every parameter is a bare `name=` (names alone say nothing personal). */
const carriesValues = (query: string) => query.split('&').some((p) => !/^[^=]*=$/.test(p));

async function record(label: string, work: Promise<HttpResult[]>): Promise<void> {
  conflicts[label] = (await work).map((r) => r.status);
}

/** Drives the known leak paths on a service of its own. */
async function provoke(): Promise<void> {
  const http = s.service.http;
  const createUser = (email: string) => http.request('POST', '/v2/user/create/', { body: { name: s.people.name(), lastName: s.people.name(), email } });
  const email = s.people.email();
  await record('user e-mail conflict (sequential)', (async () => [await createUser(email), await createUser(email)])());
  const raced = s.people.email();
  await record('user e-mail conflict (racing)', Promise.all(Array.from({ length: 6 }, () => createUser(raced))));

  // Every key the service hands out is a needle: it, its prefix or its hash in a log line is a leak.
  const keyName = `rel-logs-${randomUUID()}`;
  const createKey = async () => {
    const r = await http.request('POST', '/v2/api-key/create/', { body: { name: keyName, scopes: ['api'] } });
    if (r.body?.data?.key) s.people.secret(String(r.body.data.key));
    return r;
  };
  await record('API key name conflict (racing)', Promise.all(Array.from({ length: 6 }, createKey)));
  await record('API key name conflict (sequential)', (async () => [await createKey()])());

  const phone = s.people.phone();
  await record(
    'lead list with a phone in the query string',
    (async () => [await http.request('GET', `/v2/lead/?phone=${encodeURIComponent(phone)}&limit=3`)])(),
  );

  // A rotated API_KEY on an existing database: the instance must start (and not log the keys).
  const rotated = newApiKey();
  s.people.secret(rotated);
  try {
    await s.restartService({ API_KEY: rotated });
    rotationStarted = true;
  } catch {
    rotationStarted = false;
  }
}

function scan(needles: Needles): Hit[] {
  const phones = new Set(needles.phones);
  const exact: [Category, string[]][] = [
    ['name', needles.names],
    ['email', needles.emails],
    ['key material', needles.secrets],
  ];
  const found: Hit[] = [];
  for (const file of readdirSync(LOG_DIR)
    .filter((f) => f.endsWith('.log'))
    .sort()) {
    const text = readFileSync(path.join(LOG_DIR, file), 'utf8');
    scanned.files++;
    scanned.bytes += text.length;
    text.split('\n').forEach((line, i) => {
      scanned.lines++;
      const hit = (category: Category, what: string | RegExp) => {
        found.push({ category, file, line: i + 1, redacted: line.replace(what, `<${category}>`).slice(0, 300) });
      };
      // Phones: any 10-digit window of a digit run (separators such as "+7 915 123-45-67" ignored)
      // that is a national number the suite sent; UUIDs (request ids) left out: their digits are random.
      const joined = line.replace(UUID, '<uuid>').replace(/(?<=\d)[\s().-]{1,2}(?=\d)/g, '');
      for (const run of joined.match(/\d{10,}/g) ?? []) {
        for (let k = 0; k + 10 <= run.length; k++) if (phones.has(run.slice(k, k + 10))) hit('phone', /\d(?:[\s().-]{0,2}\d){9,}/g);
      }
      for (const [category, list] of exact) for (const n of list) if (n.length >= 8 && line.includes(n)) hit(category, n);
      if (NAME_MARK.test(line)) hit('name', NAME_MARK);
      if (GENERATED_KEY.test(line)) hit('key material', GENERATED_KEY);
      if (SHA256_HEX.test(line)) hit('key material', SHA256_HEX);
      for (const m of line.matchAll(LOGGED_QUERY)) if (carriesValues(m[1])) hit('query string', m[1]);
      for (const re of [NAME_MARK, GENERATED_KEY, SHA256_HEX]) re.lastIndex = 0;
    });
  }
  return found;
}

const byCategory = (category: Category) => hits.filter((h) => h.category === category);

beforeAll(async () => {
  s = await startScenario('logs', '915');
  try {
    await provoke();
  } finally {
    await s.close();
  }
  await writeNeedles('logs', s.people.needles);
  hits = scan(readAllNeedles(runState().runDir));
}, 300_000);

afterAll(async () => {
  const categories: Category[] = ['phone', 'name', 'email', 'key material', 'query string'];
  const count = (c: Category) => byCategory(c).length;
  await writeFigures('logs', {
    scanned,
    provoked: conflicts,
    rotationStarted,
    hitsByCategory: Object.fromEntries(categories.map((c) => [c, count(c)])),
    hitsByFile: hits.reduce<Record<string, number>>((acc, h) => ({ ...acc, [h.file]: (acc[h.file] ?? 0) + 1 }), {}),
    examples: categories.flatMap((c) => byCategory(c).slice(0, 5)),
    summary: [
      ['service output scanned', `${scanned.files} files, ${scanned.lines} lines, ${Math.round(scanned.bytes / 1024)} KiB`],
      ['lines with phone / name / e-mail / key', `${count('phone')} / ${count('name')} / ${count('email')} / ${count('key material')}`],
      ['lines with query parameter values', String(count('query string'))],
      ['provoked conflicts (statuses)', JSON.stringify(conflicts)],
      ['start after API_KEY rotation', rotationStarted === undefined ? 'not reached' : rotationStarted ? 'started' : 'FAILED to start'],
    ],
  });
}, 60_000);

describe('the service output of the whole run', () => {
  const lines = (c: Category) =>
    byCategory(c)
      .map((h) => `${h.file}:${h.line}: ${h.redacted}`)
      .slice(0, 10);

  it('was captured', () => {
    expect(scanned.lines).toBeGreaterThan(0);
  });

  it('carries no phone the suite sent', () => expect(lines('phone')).toEqual([]));
  it('carries no name the suite sent', () => expect(lines('name')).toEqual([]));
  it('carries no e-mail the suite sent', () => expect(lines('email')).toEqual([]));
  it('carries no API key, key prefix or key hash', () => expect(lines('key material')).toEqual([]));
  it('carries no query parameter values', () => expect(lines('query string')).toEqual([]));

  it('an instance started with a rotated API_KEY on the same database starts', () => {
    expect(rotationStarted).toBe(true);
  });
});
