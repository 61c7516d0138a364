import path from 'node:path';
import { Client } from 'pg';
import { demoOrder, DemoOrder, People } from './fixtures';
import { copyCluster, PgServer } from './postgres';
import { runState, writeNeedles } from './run-dir';
import { ServiceProcess } from './service';

export interface Scenario {
  name: string;
  pg: PgServer;
  service: ServiceProcess;
  /** A direct connection for counts and checks (reconnect after faults with `reconnect`). */
  db: Client;
  order: DemoOrder;
  people: People;
  apiKey: string;
  restartService(env?: Record<string, string>): Promise<void>;
  reconnect(): Promise<void>;
  close(): Promise<void>;
}

async function connect(url: string): Promise<Client> {
  const c = new Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  return c;
}

/**
 * One scenario's world: its own copy of the template cluster on a free port, the real service on
 * it (results/logs/<name>.log), a direct connection, the demo order and its people.
 */
export async function startScenario(name: string, phoneArea: string, env: Record<string, string> = {}): Promise<Scenario> {
  const { runDir, templateDir, apiKey } = runState();
  const dataDir = path.join(runDir, name);
  copyCluster(templateDir, dataDir);
  const pg = await PgServer.start(dataDir, path.join(runDir, `${name}-postgres.log`));
  const people = new People(phoneArea);
  const s: Scenario = {
    name,
    pg,
    service: await ServiceProcess.start({ databaseUrl: pg.url(), apiKey, name, env }),
    db: await connect(pg.url()),
    order: { id: 0, code: '' },
    people,
    apiKey,
    async restartService(next = env) {
      await s.service.stop();
      s.service = await ServiceProcess.start({ databaseUrl: pg.url(), apiKey, name, env: next });
    },
    async reconnect() {
      await s.db.end().catch(() => undefined);
      s.db = await connect(pg.url());
    },
    async close() {
      await writeNeedles(name, people.needles);
      await s.service.stop().catch(() => undefined);
      await s.db.end().catch(() => undefined);
      await pg.stop();
    },
  };
  s.order = await demoOrder(s.db);
  return s;
}
