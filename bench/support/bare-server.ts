import express, { Request, Response } from 'express';
import { Pool } from 'pg';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../../src/database/read-database';
import { duplicateWindowStart } from '../../src/modules/leads/domain/lead-links';
import type { NewLead } from '../../src/modules/leads/domain/new-lead';
import { LeadsRepository } from '../../src/modules/leads/persistence/leads.repository';
import { serveCommands } from './child';
import { profilerCommands } from './cpu-profile';

/**
 * The baselines: a bare Express 5 + pg server, only `express.json()` between socket and driver. `/insert` and `/item/:id` show the
 * stack's best (a minimal table); `/lead` and `/lead/:id` run the service's own statements and transaction shape without validation,
 * auth, idempotency or framework. Against the first the ratio is framework plus data cost, against the second framework cost alone.
 */

const DUPLICATE_WINDOW_DAYS = 30;

function newLead(body: { orderId: number; phone: string; name?: string }): NewLead {
  return {
    orderId: body.orderId,
    phone: body.phone,
    leadType: 'straight',
    statusId: 1,
    name: body.name ?? null,
    sourceComment: null,
    ip: null,
    externalIdCrmA: null,
    externalIdCrmB: null,
    externalIdCrmC: null,
    externalIdCrmD: null,
    createMethod: 'API',
    source: 'organic',
    planningCallAt: new Date(),
    dialAfter: new Date(),
    dialingHold: null,
    dialingHoldSince: null,
    priority: 0,
    utcOffset: 3,
    socialAId: null,
    socialBLogin: null,
    messengerUserName: null,
    messengerPhone: null,
    messengerId: null,
    adCampaignId: null,
    customValues: {},
    consent: null,
  };
}

/** LeadsService.createLead's statement: one call of lead_create, its own transaction. */
function createLead(repo: LeadsRepository, db: Queryable | Pool, lead: NewLead): Promise<number> {
  return repo.insertLinked(db, lead, { since: duplicateWindowStart(new Date(), DUPLICATE_WINDOW_DAYS), jobId: null });
}

async function main(): Promise<void> {
  const pool = new Pool({ connectionString: process.env.BENCH_BARE_DATABASE_URL, max: Number(process.env.BENCH_BARE_POOL ?? 10) });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS bare_item (id serial PRIMARY KEY, name text, phone text NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`,
  );
  // On the pool itself, the repository prepares its hot statements (detail, lead_create) as the service does on its DataSource.
  const repo = new LeadsRepository(pool as unknown as DataSource);
  const ok = (res: Response, data: unknown) => res.json({ success: true, message: '', data });

  const app = express();
  app.disable('x-powered-by');
  app.use(express.json({ limit: '1mb' }));
  app.post('/insert', async (req: Request, res: Response) => {
    const rows = (await pool.query(`INSERT INTO bare_item (name, phone) VALUES ($1, $2) RETURNING id`, [req.body.name, req.body.phone])).rows;
    ok(res, { id: rows[0].id });
  });
  app.get('/item/:id', async (req: Request, res: Response) => {
    const rows = (await pool.query(`SELECT id, name, phone, created_at FROM bare_item WHERE id = $1`, [Number(req.params.id)])).rows;
    if (!rows.length) return void res.status(404).json({ success: false, message: 'not found', data: [] });
    ok(res, rows[0]);
  });
  app.post('/lead', async (req: Request, res: Response) => ok(res, { id: await createLead(repo, pool, newLead(req.body)) }));
  app.get('/lead/:id', async (req: Request, res: Response) => {
    const lead = await repo.findById(Number(req.params.id));
    if (!lead) return void res.status(404).json({ success: false, message: 'not found', data: [] });
    ok(res, lead);
  });

  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const port = (server.address() as { port: number }).port;
  serveCommands({ url: `http://127.0.0.1:${port}` }, profilerCommands(), async () => {
    server.close();
    await pool.end();
  });
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
