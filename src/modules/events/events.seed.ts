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
    await m.query(
      `UPDATE event e
          SET payload = jsonb_set(jsonb_set(e.payload, '{order,createdAt}', to_jsonb(o.created_at)), '{order,updatedAt}', to_jsonb(o.updated_at))
         FROM call_order o
        WHERE e.type = 'order.created' AND e.order_id = o.id AND e.payload ? 'order'`,
    );
  }
}
