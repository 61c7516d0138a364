import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import { CallAttemptGroupEntity } from './persistence/call-attempt-group.entity';

/** Ids 1 (the default) and 2 on a fresh database. */
export const callAttemptGroupsDemoSeed: DemoSeedStep = {
  name: 'reference-data:call-attempt-groups',
  order: 10,
  async run(m: EntityManager) {
    const groups = m.getRepository(CallAttemptGroupEntity);
    const someDefault = await groups.existsBy({ isDefault: true });
    await groups.insert({
      title: 'Стандартный дозвон',
      intervals: [5, 30, 120, 1440],
      isDefault: !someDefault,
      resetAttemptsEnabled: false,
      repeatLastInterval: false,
    });
    await groups.insert({ title: 'Настойчивый дозвон', intervals: [15, 60], isDefault: false, resetAttemptsEnabled: true, repeatLastInterval: true });
  },
};
