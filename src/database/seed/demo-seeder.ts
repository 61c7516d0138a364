import { Injectable, Logger } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

/** One named, deterministic step of the demo dataset. Runs once per database. */
export interface DemoSeedStep {
  name: string;
  /** Lower runs first (reference data before orders before leads before calls). */
  order: number;
  run(manager: EntityManager): Promise<void>;
}

/**
 * The demo dataset is made of steps contributed by each domain module. A step runs once per
 * database (recorded in `demo_seed_step`) inside one transaction, so a restart never duplicates
 * data and a step added by a later release still runs on an existing demo database.
 */
@Injectable()
export class DemoSeeder {
  private readonly logger = new Logger('DemoSeeder');
  private readonly steps: DemoSeedStep[] = [];

  constructor(private readonly ds: DataSource) {}

  add(step: DemoSeedStep): void {
    this.steps.push(step);
  }

  async run(): Promise<string[]> {
    const done: { name: string }[] = await this.ds.query(`SELECT name FROM demo_seed_step`);
    const applied = new Set(done.map((d) => d.name));
    const ran: string[] = [];
    for (const step of [...this.steps].sort((a, b) => a.order - b.order)) {
      if (applied.has(step.name)) continue;
      await this.ds.transaction(async (m) => {
        const claimed: unknown[] = await m.query(`INSERT INTO demo_seed_step (name) VALUES ($1) ON CONFLICT DO NOTHING RETURNING name`, [step.name]);
        if (claimed.length === 0) return; // another instance seeded it meanwhile
        await step.run(m);
        ran.push(step.name);
      });
    }
    if (ran.length > 0) this.logger.log(`demo dataset: ${ran.join(', ')}`);
    return ran;
  }
}
