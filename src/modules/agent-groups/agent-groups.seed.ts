import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import { UserEntity } from '../users/persistence/user.entity';
import { AgentGroupEntity, AgentGroupMemberEntity } from './persistence/agent-group.entity';
import { insertedId } from '../../database/insert-result';

/** Members are named by e-mail (the demo users' natural key). */
const DEMO_GROUPS = [
  {
    names: { ru: 'Продажи', gb: 'Sales' },
    agents: [
      'anna.smirnova@callcenter.example',
      'sergey.kuznetsov@callcenter.example',
      'maria.sokolova@callcenter.example',
      'ekaterina.volkova@callcenter.example',
      'viktor.andreev@callcenter.example',
    ],
  },
  {
    names: { ru: 'Поддержка', gb: 'Support' },
    agents: [
      'dmitry.petrov@callcenter.example',
      'sergey.kuznetsov@callcenter.example',
      'alexey.popov@callcenter.example',
      'natalia.lebedeva@callcenter.example',
    ],
  },
  {
    names: { ru: 'Английская линия', gb: 'English line' },
    agents: [
      'maria.sokolova@callcenter.example',
      'emily.johnson@callcenter.example',
      'james.wilson@callcenter.example',
      'oliver.brown@callcenter.example',
      'charlotte.davies@callcenter.example',
    ],
  },
];

/** After the users (order 10): on a fresh database the groups get ids 1..3 in this order. */
export const agentGroupsDemoSeed: DemoSeedStep = {
  name: 'reference-data:agent-groups',
  order: 11,
  async run(m: EntityManager) {
    for (const g of DEMO_GROUPS) {
      const inserted = await m.getRepository(AgentGroupEntity).insert({ names: g.names });
      const groupId = insertedId(inserted);
      const agents = await m
        .getRepository(UserEntity)
        .createQueryBuilder('u')
        .select('u.id')
        .where('lower(u.email) IN (:...emails)', { emails: g.agents })
        .getMany();
      const members = agents.map((u) => ({ groupId, userId: u.id }));
      if (members.length > 0) await m.getRepository(AgentGroupMemberEntity).createQueryBuilder().insert().values(members).orIgnore().execute();
    }
  },
};
