import path from 'node:path';
import { Client } from 'pg';
import { HaProxy } from './haproxy';
import { freeLoopbackPort } from './ports';
import { FleetDatabase, FleetTarget } from './fleet-db';
import { runState } from './run-dir';
import { ServiceProcess } from './service';

export interface Instance {
  name: string;
  kind: 'api' | 'worker';
  port: number;
  env: Record<string, string>;
  process: ServiceProcess | null;
}

/**
 * The fleet: one empty PostgreSQL database made for it (see FleetDatabase), API instances (no job
 * workers) behind HAProxy, and worker-only instances, each on a fixed port so that a restarted
 * instance comes back where the balancer looks for it.
 */
export class Fleet {
  readonly instances: Instance[] = [];
  lb!: HaProxy;
  db!: Client;

  private constructor(
    readonly name: string,
    readonly database: FleetDatabase,
    readonly apiKey: string,
  ) {}

  /** `name` names its files: data, PostgreSQL and HAProxy logs in the run directory, service logs (`<name>-api1.log`, ...). */
  static async create(name: string, target: FleetTarget, apiCount: number, workerCount: number, env: Record<string, string>): Promise<Fleet> {
    const { apiKey } = runState();
    const fleet = new Fleet(name, await FleetDatabase.open(name, target), apiKey);
    for (let i = 1; i <= apiCount; i++) {
      fleet.instances.push({ name: `api${i}`, kind: 'api', port: await freeLoopbackPort(), env: { ...env, WORKERS: '0' }, process: null });
    }
    for (let i = 1; i <= workerCount; i++) {
      fleet.instances.push({ name: `worker${i}`, kind: 'worker', port: await freeLoopbackPort(), env: { ...env, WORKERS_ONLY: 'true' }, process: null });
    }
    return fleet;
  }

  get apis(): Instance[] {
    return this.instances.filter((i) => i.kind === 'api');
  }

  get workers(): Instance[] {
    return this.instances.filter((i) => i.kind === 'worker');
  }

  async startBalancer(binary: string): Promise<void> {
    const { runDir } = runState();
    this.lb = await HaProxy.start(binary, runDir, this.apis, path.join(runDir, `${this.name}-haproxy.log`));
  }

  async connect(): Promise<void> {
    this.db = new Client({ connectionString: this.database.url });
    this.db.on('error', () => undefined);
    await this.db.connect();
  }

  /** Starts an instance (on its port) and waits until it is ready and, for an API instance, the balancer sees it UP. */
  async start(i: Instance, extraEnv: Record<string, string> = {}): Promise<void> {
    i.process = await ServiceProcess.start({
      databaseUrl: this.database.url,
      apiKey: this.apiKey,
      name: `${this.name}-${i.name}`,
      port: i.port,
      probesOnly: i.kind === 'worker',
      env: { ...i.env, ...extraEnv },
    });
    if (i.kind === 'api' && this.lb) await this.lb.waitFor(i.name, 'UP');
  }

  /** Sends `signal` and waits for the exit; returns the exit code and how long it took. */
  async terminate(i: Instance, signal: NodeJS.Signals = 'SIGTERM'): Promise<{ code: number | null; ms: number }> {
    const p = i.process!;
    const at = Date.now();
    p.signal(signal);
    const code = await p.exited;
    p.http.close();
    i.process = null;
    return { code, ms: Date.now() - at };
  }

  async close(): Promise<void> {
    await Promise.all(this.instances.map((i) => (i.process ? i.process.stop().catch(() => undefined) : Promise.resolve())));
    await this.lb?.stop();
    await this.db?.end().catch(() => undefined);
    await this.database.close();
  }
}
