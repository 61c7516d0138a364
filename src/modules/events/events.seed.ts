import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';

/**
 * The demo dataset's events come from its own writes: the triggers record every demo lead, link
 * and call, and OrdersService records each order. One thing the seed does behind the events'
 * back: it backdates each order's createdAt/updatedAt (the order "opened" weeks ago) in the same
 * transaction, after the order.created event was written. This step brings those events' order
 * objects in line with what detail shows, so the feed and the API tell one story.
 */
@Injectable()
export class EventsDemoSeed {
  constructor(seeder: DemoSeeder) {
    // After orders (30), before leads (40).
    seeder.add({ name: 'events', order: 35, run: (m) => this.run(m) });
  }

  private async run(m: EntityManager): Promise<void> {
    await m.query(
      `UPDATE event e
          SET payload = jsonb_set(jsonb_set(e.payload, '{order,createdAt}', to_jsonb(o.created_at)), '{order,updatedAt}', to_jsonb(o.updated_at))
         FROM call_order o
        WHERE e.type = 'order.created' AND e.order_id = o.id AND e.payload ? 'order'`,
    );
  }
}
