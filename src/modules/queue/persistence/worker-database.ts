import { InjectDataSource } from '@nestjs/typeorm';

/**
 * The data source job handlers run their statements on: a pool of its own (WORKER_DB_POOL_SIZE
 * connections, wired in app.module.ts), so a burst of jobs waits for worker connections and never
 * takes the ones HTTP requests need. Its pool is also what bounds the jobs' database concurrency:
 * a handler uses one connection at a time, and jobs beyond the pool's size wait for one.
 */
export const WORKER_DATA_SOURCE = 'workers';

export const InjectWorkerDataSource = () => InjectDataSource(WORKER_DATA_SOURCE);
