import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app.config';
import { dataSourceOptions, runMigrations } from '../database/data-source';
import { openDatabase } from '../database/start-database';

const USAGE = 'usage: npm run migration:run | migration:revert | migration:generate -- Name';

/**
 * The schema is written by hand in reviewed SQL migrations (repositories use plain SQL, there are
 * no entities to diff), so `generate` writes a timestamped skeleton into migrations/ to fill in.
 */
function generate(name: string | undefined): void {
  if (!name || !/^[A-Za-z][A-Za-z0-9]*$/.test(name)) throw new Error(`${USAGE} (Name: letters and digits, e.g. AddLeadCity)`);
  const stamp = Date.now();
  const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const file = path.join(__dirname, '..', '..', '..', 'migrations', `${stamp}-${kebab}.ts`);
  writeFileSync(
    file,
    `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${stamp} implements MigrationInterface {
  name = '${name}${stamp}';

  async up(q: QueryRunner): Promise<void> {
    await q.query(\`\`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(\`\`);
  }
}
`,
    { flag: 'wx' },
  );
  console.log(`wrote ${path.relative(process.cwd(), file)}: fill in up/down and add ${name}${stamp} to migrations/index.ts`);
}

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  if (command === 'generate') return generate(name);
  if (command !== 'run' && command !== 'revert') throw new Error(USAGE);
  const db = await openDatabase(loadConfig());
  try {
    if (command === 'run') {
      const applied = await runMigrations(db.url);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply');
      return;
    }
    const ds = new DataSource(dataSourceOptions(db.url));
    await ds.initialize();
    try {
      await ds.undoLastMigration({ transaction: 'each' });
      console.log('reverted the last migration');
    } finally {
      await ds.destroy();
    }
  } finally {
    await db.stop();
  }
}

main().catch((err: Error) => {
  console.error(err.message);
  process.exit(1);
});
