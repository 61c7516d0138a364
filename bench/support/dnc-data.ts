import { Pool } from 'pg';
import { normalisePhone } from '../../src/modules/leads/domain/phone';

/**
 * Do-not-call numbers and lead phones shaped like production: valid mobile numbers of 16 countries in E.164, weighted as a call center
 * serving Russia and its neighbours sees them. Number i is a pure function of i (here and in SQL), distinct below 8 million.
 */
interface Template {
  prefix: string;
  /** Digits after the prefix. */
  digits: number;
  /** The lowest first digit after the prefix (US exchanges start at 2). */
  firstMin: number;
  /** Share in percent. */
  weight: number;
}

const TEMPLATES: Template[] = [
  { prefix: '+79', digits: 9, firstMin: 0, weight: 40 }, // Russia, mobile
  { prefix: '+7701', digits: 7, firstMin: 0, weight: 8 }, // Kazakhstan
  { prefix: '+4474', digits: 8, firstMin: 0, weight: 6 }, // United Kingdom
  { prefix: '+49151', digits: 8, firstMin: 0, weight: 5 }, // Germany
  { prefix: '+919', digits: 9, firstMin: 0, weight: 5 }, // India
  { prefix: '+1212', digits: 7, firstMin: 2, weight: 4 }, // United States: New York, San Francisco, Houston
  { prefix: '+1415', digits: 7, firstMin: 2, weight: 3 },
  { prefix: '+1713', digits: 7, firstMin: 2, weight: 3 },
  { prefix: '+3361', digits: 7, firstMin: 0, weight: 4 }, // France
  { prefix: '+55119', digits: 8, firstMin: 0, weight: 4 }, // Brazil, Sao Paulo mobile
  { prefix: '+9053', digits: 8, firstMin: 0, weight: 4 }, // Turkey
  { prefix: '+99890', digits: 7, firstMin: 0, weight: 4 }, // Uzbekistan
  { prefix: '+38067', digits: 7, firstMin: 0, weight: 3 }, // Ukraine
  { prefix: '+37544', digits: 7, firstMin: 0, weight: 2 }, // Belarus
  { prefix: '+3934', digits: 8, firstMin: 0, weight: 2 }, // Italy
  { prefix: '+3462', digits: 7, firstMin: 0, weight: 1 }, // Spain
  { prefix: '+4860', digits: 7, firstMin: 0, weight: 1 }, // Poland
  { prefix: '+8613', digits: 9, firstMin: 0, weight: 1 }, // China
];

/** 100 slots, template k in `weight` of them; number i takes slot (37 i) mod 100, which visits every slot once per 100 numbers. */
const SLOTS: number[] = TEMPLATES.flatMap((t, k) => new Array<number>(t.weight).fill(k));
const MULTIPLIER = 48_271;

/** Number i of the sequence in E.164 (i below 8 million). */
export function dncPhone(i: number): string {
  const t = TEMPLATES[SLOTS[(i * 37) % 100]];
  const span = (10 - t.firstMin) * 10 ** (t.digits - 1);
  const rest = t.firstMin * 10 ** (t.digits - 1) + ((i * MULTIPLIER) % span);
  return t.prefix + String(rest).padStart(t.digits, '0');
}

/**
 * `count` numbers of the sequence from number `from` on that a lead or an add accepts, skipping the few that a numbering plan
 * leaves unassigned (about 1 in 13,000, such as +7 930 0..); they take at most `count` * 1.01 numbers of the sequence.
 */
export function validDncPhones(from: number, count: number): string[] {
  const out: string[] = [];
  for (let i = from; out.length < count; i++) {
    const phone = dncPhone(i);
    const parsed = normalisePhone(phone);
    if (parsed.ok && parsed.e164 === phone) out.push(phone);
  }
  return out;
}

/** The same number in SQL, of the integer expression `i`, with the templates as the statement's parameters $1..$5. */
export const SQL_PHONE = (
  i: string,
) => `(SELECT ($1::text[])[k] || lpad((($3::bigint[])[k] + (${i})::bigint * ${MULTIPLIER} % ($4::bigint[])[k])::text, ($2::int[])[k], '0')
   FROM (SELECT 1 + ($5::int[])[1 + (${i})::int * 37 % 100] AS k) s)`;
export const SQL_PARAMS = () => [
  TEMPLATES.map((t) => t.prefix),
  TEMPLATES.map((t) => t.digits),
  TEMPLATES.map((t) => t.firstMin * 10 ** (t.digits - 1)),
  TEMPLATES.map((t) => (10 - t.firstMin) * 10 ** (t.digits - 1)),
  SLOTS,
];

export type DncList = { scope: 'global' } | { scope: 'client'; clientId: number } | { scope: 'order'; orderId: number };

const CHUNK = 200_000;

/**
 * Numbers `from` .. `to` - 1 of the sequence onto a list, set-based in chunks: 80% without expiry, 15% expiring within two years, 5%
 * expired (and swept, as the expiry sweeper leaves them); a reason on most; 5% put there by an opt-out on a call; created over the past year.
 */
export async function loadDncEntries(pool: Pool, list: DncList, from: number, to: number): Promise<void> {
  const clientId = list.scope === 'client' ? list.clientId : null;
  const orderId = list.scope === 'order' ? list.orderId : null;
  const h = (seed: number) => `abs(hashint4extended(i, ${seed}))`;
  for (let a = from; a < to; a += CHUNK) {
    const b = Math.min(to, a + CHUNK);
    await pool.query(
      `INSERT INTO dnc_entry (phone, scope, order_id, client_id, expires_at, expiry_applied, reason, source, call_id, created_at)
       SELECT ${SQL_PHONE('i')}, $6, $7::int, $8::int,
              CASE WHEN ${h(11)} % 100 < 80 THEN NULL
                   WHEN ${h(11)} % 100 < 95 THEN now() + make_interval(days => (1 + ${h(12)} % 730)::int)
                   ELSE now() - make_interval(days => (1 + ${h(12)} % 90)::int) END,
              ${h(11)} % 100 >= 95,
              (ARRAY['customer request', 'complaint', 'litigator', 'deceased', NULL])[1 + ${h(13)} % 5],
              CASE WHEN ${h(14)} % 100 < 5 THEN 'call' ELSE 'api' END,
              CASE WHEN ${h(14)} % 100 < 5 THEN i END,
              now() - make_interval(mins => (${h(15)} % 525600)::int)
       FROM generate_series($9::int, $10::int - 1) AS i`,
      [...SQL_PARAMS(), list.scope, orderId, clientId, a, b],
    );
  }
}

/** Up to `n` numbers of active entries (no expiry or not yet expired) that cover leads of client `clientId`'s orders, at random; only numbers a lead accepts. */
export async function activeListedPhones(pool: Pool, clientId: number, n: number): Promise<string[]> {
  const { rows } = await pool.query(
    `SELECT phone FROM dnc_entry WHERE (expires_at IS NULL OR expires_at > now()) AND (scope = 'global' OR client_id = $1)
     ORDER BY random() LIMIT $2`,
    [clientId, n],
  );
  return rows.map((r: { phone: string }) => r.phone).filter((phone) => normalisePhone(phone).ok);
}

/** A checkpoint after a bulk load, so its writes are not flushed during the measured loads (skipped without the privilege). */
export async function checkpoint(pool: Pool): Promise<void> {
  await pool.query(`CHECKPOINT`).catch((err: Error) => console.warn(`CHECKPOINT skipped: ${err.message}`));
}
