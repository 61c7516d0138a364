import { InjectDataSource } from '@nestjs/typeorm';

/**
 * The data source job handlers use: a pool of its own (WORKER_DB_POOL_SIZE, wired in app.module.ts), so a burst of jobs waits for
 * worker connections and never takes those HTTP requests need. Handlers use one connection at a time, so the pool bounds the jobs' concurrency.
 */
export const WORKER_DATA_SOURCE = 'workers';

export const InjectWorkerDataSource = () => InjectDataSource(WORKER_DATA_SOURCE);
