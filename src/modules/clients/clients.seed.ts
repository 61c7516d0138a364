import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import { ClientEntity } from './persistence/client.entity';

/** The demo clients, by name (their natural key); the demo orders name theirs (orders.seed.ts). */
export const DEMO_CLIENTS = ['Dental clinic', 'Online school'] as const;
export type DemoClientName = (typeof DEMO_CLIENTS)[number];

/** Reference data before the orders (order 30): on a fresh database the clients get ids 1 and 2 in this order. */
export const clientsDemoSeed: DemoSeedStep = {
  name: 'reference-data:clients',
  order: 12,
  async run(m: EntityManager) {
    for (const name of DEMO_CLIENTS) await m.getRepository(ClientEntity).insert({ name });
  },
};
