import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../../database/seed/demo-seeder';

/** Members are named by e-mail (the demo users' natural key). */
const DEMO_GROUPS = [
  {
    names: { ru: 'Продажи', gb: 'Sales' },
    agents: ['anna.smirnova@callcenter.example', 'sergey.kuznetsov@callcenter.example', 'maria.sokolova@callcenter.example', 'ekaterina.volkova@callcenter.example', 'viktor.andreev@callcenter.example'],
  },
  {
    names: { ru: 'Поддержка', gb: 'Support' },
    agents: ['dmitry.petrov@callcenter.example', 'sergey.kuznetsov@callcenter.example', 'alexey.popov@callcenter.example', 'natalia.lebedeva@callcenter.example'],
  },
  {
    names: { ru: 'Английская линия', gb: 'English line' },
    agents: ['maria.sokolova@callcenter.example', 'emily.johnson@callcenter.example', 'james.wilson@callcenter.example', 'oliver.brown@callcenter.example', 'charlotte.davies@callcenter.example'],
  },
];

/** After the users (order 10): on a fresh database the groups get ids 1..3 in this order. */
export const agentGroupsDemoSeed: DemoSeedStep = {
  name: 'reference-data:agent-groups',
  order: 11,
  async run(m: EntityManager) {
    for (const g of DEMO_GROUPS) {
      const [{ id }]: { id: number }[] = await m.query(`INSERT INTO agent_group (names) VALUES ($1::jsonb) RETURNING id`, [JSON.stringify(g.names)]);
      await m.query(`INSERT INTO agent_group_member (group_id, user_id) SELECT $1, id FROM app_user WHERE lower(email) = ANY($2) ON CONFLICT DO NOTHING`, [id, g.agents]);
    }
  },
};
