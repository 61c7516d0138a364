import { Logger } from '@nestjs/common';
import type { EventEmitter } from 'node:events';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DATABASE_SOURCE, databaseOutages } from '../common/outage-log';
import { describeDatabaseError, isDatabaseUnavailable } from '../common/pg-errors';

/**
 * With read replicas: TypeORM's replication settings (a pool per server). Raw queries,
 * repository reads and transactions go to the primary; only `ReadDatabase.run` asks for a replica.
 */
export function replicatedDataSourceOptions(url: string, replicaUrls: string[]): Partial<DataSourceOptions> {
  if (replicaUrls.length === 0) return {};
  // defaultMode master: TypeORM would otherwise send every repository and query-builder read to a replica.
  return {
    url: undefined,
    replication: { master: { url }, slaves: replicaUrls.map((u) => ({ url: u })), defaultMode: 'master' },
  };
}

/**
 * Opens the app's DataSource. TypeORM connects to every replica at start, so a replica that is down would keep every instance
 * from starting: the app then starts on the primary alone and says so. A replica failing later is handled per read by `ReadDatabase`.
 */
export async function openDataSource(options: DataSourceOptions): Promise<DataSource> {
  const ds = await openPrimaryOrAlone(options);
  // Background tasks report outages of this pool without a probe of their own: this one tells the end.
  databaseOutages.useDefaultProbe(DATABASE_SOURCE, () => ds.query('SELECT 1'));
  return ds;
}

async function openPrimaryOrAlone(options: DataSourceOptions): Promise<DataSource> {
  const replication = (options as { replication?: { master: { url: string } } }).replication;
  const ds = new DataSource(options);
  try {
    return guardNewConnections(await ds.initialize());
  } catch (err) {
    if (!replication || !isDatabaseUnavailable(err)) throw err;
    await ds.driver.disconnect().catch(() => undefined);
    new Logger('Database').warn(`A read replica is unreachable (${describeDatabaseError(err)}); starting on the primary alone, restart to use replicas again`);
    const { replication: _dropped, ...primaryOnly } = options as DataSourceOptions & { replication?: unknown };
    return guardNewConnections(await new DataSource({ ...primaryOnly, url: replication.master.url } as DataSourceOptions).initialize());
  }
}

/**
 * A connection the server ends as it is established can deliver its FATAL while no `error` listener is attached (pg-pool has
 * removed its idle one, TypeORM adds its own a microtask later), which crashes the process. A listener on every new client
 * closes that gap; the dead client fails its first query (a 503) and the pool drops it.
 */
export function guardNewConnections(ds: DataSource): DataSource {
  const driver = ds.driver as unknown as { master?: EventEmitter; slaves?: EventEmitter[] };
  for (const pool of [driver.master, ...(driver.slaves ?? [])]) if (pool) guardPool(pool);
  return ds;
}

const guarded = new WeakSet<EventEmitter>();

/** The same for one pg pool (once per pool): every client it connects from now on has an `error` listener. */
export function guardPool(pool: EventEmitter): void {
  if (guarded.has(pool)) return;
  guarded.add(pool);
  pool.on('connect', (client: EventEmitter) => client.on('error', () => undefined));
}
