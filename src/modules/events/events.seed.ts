import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';

/**
 * The demo events come from the seed's own writes (lead, link and call triggers; OrdersService for orders). The seed backdates
 * each order's createdAt/updatedAt after its order.created event is written; this step brings those events' order objects in
 * line with the detail, so the feed and the API tell one story.
 */
@Injectable()
export class EventsDemoSeed {
  constructor(seeder: DemoSeeder) {
    // After orders (30), before leads (40).
    seeder.add({ name: 'events', order: 35, run: (m) => this.run(m) });
  }

  private async run(m: EntityManager): Promise<void> {
    // The times as JSON are read first: an UPDATE of a distributed table may not call a STABLE function (to_jsonb of a
    // timestamptz) on a joined row's columns (docs/scaling.md).
    const orders: { id: number; created: string; updated: string }[] = await m.query(
      `SELECT id, to_jsonb(created_at)::text AS created, to_jsonb(updated_at)::text AS updated FROM call_order`,
    );
    await m.query(
      `UPDATE event e
          SET payload = jsonb_set(jsonb_set(e.payload, '{order,createdAt}', o.created), '{order,updatedAt}', o.updated)
         FROM unnest($1::int[], $2::jsonb[], $3::jsonb[]) o(id, created, updated)
        WHERE e.type = 'order.created' AND e.order_id = o.id AND e.payload ? 'order'`,
      [orders.map((o) => o.id), orders.map((o) => o.created), orders.map((o) => o.updated)],
    );
  }
}
