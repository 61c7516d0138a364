import { Injectable, Logger } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { DncService } from './dnc.service';
import { type DncList, normalisePhones } from './domain/dnc-entry';

/** The client whose list blocks a demo lead, and the order whose first planned lead it blocks (orders.seed.ts, clients.seed.ts). */
const DEMO_DNC_CLIENT = 'Dental clinic';
const DEMO_DNC_BLOCKED_ORDER = 'stomatologiya-ulybka';
/** An order with a list of its own. */
const DEMO_DNC_ORDER = 'novostroyki-moskvy';

interface DemoEntries {
  list: DncList;
  phones: string[];
  reason: string;
  expiresInDays?: number;
}

/**
 * Demo do-not-call lists (seed order 57): a few numbers on the global list, on the dental clinic's list (one of them the phone of
 * the clinic order's first planned lead, which stops: callable answers `dnc`) and on an order's list. Written as an add is: the
 * entries and the stop of the leads they cover, in the step's transaction. The opt-out on a call comes with the demo calls.
 */
@Injectable()
export class DncDemoSeed {
  private readonly logger = new Logger('DncDemoSeed');

  constructor(
    seeder: DemoSeeder,
    private readonly dnc: DncService,
  ) {
    seeder.add({ name: 'dnc-lists', order: 57, run: (m) => this.run(m) });
  }

  private async run(m: EntityManager): Promise<void> {
    const clients: { id: number }[] = await m.query(`SELECT id FROM client WHERE name = $1`, [DEMO_DNC_CLIENT]);
    const orders: { id: number }[] = await m.query(`SELECT id FROM call_order WHERE code = $1`, [DEMO_DNC_ORDER]);
    const blocked: { phone: string }[] = await m.query(
      `SELECT l.phone FROM lead l JOIN call_order o ON o.id = l.order_id WHERE o.code = $1 AND l.planning_call_at IS NOT NULL ORDER BY l.id LIMIT 1`,
      [DEMO_DNC_BLOCKED_ORDER],
    );
    const entries: DemoEntries[] = [
      { list: { scope: 'global', orderId: null, clientId: null }, phones: ['+79991234455', '+4930901820'], reason: 'regulator complaint' },
      { list: { scope: 'global', orderId: null, clientId: null }, phones: ['+447400123987'], reason: 'asked by e-mail', expiresInDays: 180 },
    ];
    if (clients.length) {
      const list: DncList = { scope: 'client', orderId: null, clientId: clients[0].id };
      entries.push({ list, phones: ['+78129876543', '+79219876500', ...blocked.map((b) => b.phone)], reason: 'patient asked not to be called' });
    }
    if (orders.length) {
      entries.push({
        list: { scope: 'order', orderId: orders[0].id, clientId: null },
        phones: ['+79035550011', '+79265550022'],
        reason: 'not looking for a flat',
      });
    }
    for (const { list, phones, reason, expiresInDays } of entries) {
      const parsed = normalisePhones(phones);
      if (!parsed.ok) throw new Error(`demo do-not-call numbers: ${JSON.stringify(parsed.errors)}`);
      const expiresAt = expiresInDays === undefined ? null : new Date(Date.now() + expiresInDays * 86_400_000);
      await this.dnc.addInTransaction(list, [...parsed.value].sort(), { expiresAt, reason }, m);
    }
    this.logger.log(`demo do-not-call lists: ${entries.reduce((n, e) => n + e.phones.length, 0)} numbers`);
  }
}
