import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { Needles, emptyNeedles } from './run-dir';

/** An API_KEY of 52 characters, the first 12 of which (the stored lookup prefix) are random too. */
export function newApiKey(): string {
  return `relk${randomBytes(24).toString('hex')}`;
}

/** What of a key must never be logged: the key, its stored lookup prefix (12 chars), its SHA-256. */
export function apiKeyNeedles(key: string): string[] {
  return [key, key.slice(0, 12), createHash('sha256').update(key, 'utf8').digest('hex')];
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join('');

/**
 * Distinctive personal data for one scenario: names that cannot occur by chance in a log line and
 * Russian mobile numbers in the scenario's own range (+7 <area> ...), each remembered for the log check.
 */
export class People {
  readonly needles: Needles = emptyNeedles();
  private readonly token = letters(6);
  private next = randomInt(1_000_000, 8_000_000);
  private n = 0;

  constructor(private readonly area: string) {}

  phone(): string {
    const national = `${this.area}${String(this.next++).padStart(7, '0')}`;
    this.needles.phones.push(national);
    return `+7${national}`;
  }

  name(): string {
    const name = `Zelvanor ${this.token} Quibrent${++this.n}`;
    this.needles.names.push(name);
    return name;
  }

  email(): string {
    const email = `zelvanor.${this.token}.${++this.n}@example.test`;
    this.needles.emails.push(email);
    return email;
  }

  secret(key: string): void {
    this.needles.secrets.push(...apiKeyNeedles(key));
  }
}

export interface DemoOrder {
  id: number;
  code: string;
}

/** The demo dataset's first order: leads of the scenarios go there. */
export async function demoOrder(c: Client): Promise<DemoOrder> {
  const r = await c.query<DemoOrder>(`SELECT id, code FROM call_order ORDER BY id LIMIT 1`);
  if (!r.rows[0]) throw new Error('no order in the demo dataset');
  return r.rows[0];
}

export async function demoSipEndpointId(c: Client): Promise<number> {
  const r = await c.query<{ id: number }>(`SELECT id FROM sip_endpoint WHERE is_active ORDER BY id LIMIT 1`);
  return r.rows[0].id;
}

/**
 * A valid lead body; `marker` (externalIdCrmA) identifies the request, so the leads it created can
 * be counted in the database whatever the API answered.
 */
export function leadBody(order: DemoOrder, people: People, marker: string = randomUUID()): Record<string, unknown> {
  return { leadType: 'straight', phone: people.phone(), orderId: order.id, orderCode: order.code, name: people.name(), externalIdCrmA: marker };
}
