import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataSource } from 'typeorm';
import { loadConfig } from '../config/app.config';
import { dataSourceOptions, runMigrations } from '../assembly/data-source';
import { openDatabase } from '../database/start-database';
import { schemaDrift } from '../database/schema-drift';

const USAGE = 'usage: npm run migration:run | migration:revert | migration:check | migration:generate -- Name | migration:create -- Name';

const MIGRATIONS_DIR = path.join(__dirname, '..', '..', '..', 'migrations');

function migrationName(name: string | undefined): string {
  if (!name || !/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`${USAGE} (Name: PascalCase letters and digits, e.g. AddLeadCity)`);
  return name;
}

function sqlLiteral(sql: string): string {
  return sql.replace(/\\/g, '\\\\').replace(/`/g, '\\`').replace(/\$\{/g, '\\${');
}

function statements(queries: { query: string; parameters?: unknown[] }[]): string {
  return queries.map((q) => `    await q.query(\`${sqlLiteral(q.query)}\`${q.parameters?.length ? `, ${JSON.stringify(q.parameters)}` : ''});`).join('\n');
}

/** Writes migrations/<timestamp>-<kebab-name>.ts (never over an existing file) and says what to do next. */
function writeMigration(name: string, up: string, down: string): void {
  const stamp = Date.now();
  const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const file = path.join(MIGRATIONS_DIR, `${stamp}-${kebab}.ts`);
  writeFileSync(
    file,
    `import { MigrationInterface, QueryRunner } from 'typeorm';

export class ${name}${stamp} implements MigrationInterface {
  name = '${name}${stamp}';

  async up(q: QueryRunner): Promise<void> {
${up}
  }

  async down(q: QueryRunner): Promise<void> {
${down}
  }
}
`,
    { flag: 'wx' },
  );
  console.log(`wrote ${path.relative(process.cwd(), file)}: review it, then add ${name}${stamp} to migrations/index.ts`);
}

/**
 * TypeORM's generator: the difference between the entities and the database (migrated to the
 * latest migration first, so the diff is only what the entities add). Things TypeORM cannot model
 * (functions, triggers, expression indexes) are written by hand in a migration made with `create`.
 */
async function generate(url: string, name: string): Promise<void> {
  const ds = await new DataSource(dataSourceOptions(url)).initialize();
  try {
    if (await ds.showMigrations()) throw new Error('the database has pending migrations: run `npm run migration:run` first');
    const { upQueries, downQueries } = await schemaDrift(ds);
    if (upQueries.length === 0) {
      console.log('no changes: the entities match the database');
      return;
    }
    writeMigration(name, statements(upQueries), statements([...downQueries].reverse()));
  } finally {
    await ds.destroy();
  }
}

/** Prints what `generate` would write; exits 1 when there is any. */
async function check(url: string): Promise<void> {
  const ds = await new DataSource(dataSourceOptions(url)).initialize();
  try {
    const { upQueries } = await schemaDrift(ds);
    if (upQueries.length === 0) {
      console.log('no drift: the entities match the database');
      return;
    }
    console.log(upQueries.map((q) => `${q.query};`).join('\n'));
    process.exitCode = 1;
  } finally {
    await ds.destroy();
  }
}

async function main(): Promise<void> {
  const [command, name] = process.argv.slice(2);
  if (command === 'create') return writeMigration(migrationName(name), '    await q.query(``);', '    await q.query(``);');
  if (!['run', 'revert', 'generate', 'check'].includes(command ?? '')) throw new Error(USAGE);
  const generateAs = command === 'generate' ? migrationName(name) : '';
  const db = await openDatabase(loadConfig());
  try {
    if (command === 'run') {
      const applied = await runMigrations(db.url);
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'nothing to apply');
      return;
    }
    if (command === 'generate') return await generate(db.url, generateAs);
    if (command === 'check') return await check(db.url);
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
