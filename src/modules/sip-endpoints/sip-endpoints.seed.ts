import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import { SipEndpointEntity } from './persistence/sip-endpoint.entity';

/** Moscow, Saint Petersburg, London: ids 1..3 on a fresh database. Orders refer to them by number. */
const DEMO_SIP_ENDPOINTS = [
  { number: '+74951234567', title: 'Москва, основная линия' },
  { number: '+78123456789', title: 'Санкт-Петербург' },
  { number: '+442071234567', title: 'London, English line' },
];

export const sipEndpointsDemoSeed: DemoSeedStep = {
  name: 'reference-data:sip-endpoints',
  order: 10,
  async run(m: EntityManager) {
    // A number already there keeps its endpoint.
    await m.getRepository(SipEndpointEntity).createQueryBuilder().insert().values(DEMO_SIP_ENDPOINTS).orIgnore().updateEntity(false).execute();
  },
};
