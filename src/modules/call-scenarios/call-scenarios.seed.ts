import { EntityManager } from 'typeorm';
import { DemoSeedStep } from '../../database/seed/demo-seeder';
import { CallScenarioEntity } from './persistence/call-scenario.entity';

/** Id 1 on a fresh database. */
export const callScenariosDemoSeed: DemoSeedStep = {
  name: 'reference-data:call-scenarios',
  order: 10,
  async run(m: EntityManager) {
    await m.getRepository(CallScenarioEntity).insert({
      title: 'Квалификация лида',
      description:
        'Поздороваться, представиться, уточнить интерес к предложению, бюджет и удобное время визита; ' +
        'при интересе перевести лид в статус «квалифицирован». Lead qualification: greet, confirm interest, budget and a convenient time.',
    });
  },
};
