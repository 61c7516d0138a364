import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { DemoSeeder } from '../../database/seed/demo-seeder';
import { DncService } from '../dnc/dnc.service';
import { LeadCallAttemptsService } from '../leads/lead-call-attempts.service';
import { seededRandom } from '../../database/seed/random';

interface DemoLead {
  id: number;
  orderId: number;
  phone: string;
  createdAt: Date;
  sips: number[];
  agents: number[];
}

/** The statuses demo calls end with. */
interface DemoStatuses {
  answered: number;
  noAnswer: number;
  failed: number;
  callback: number;
}

/** The order whose lead asks, on a demo call, not to be called again (its client: "Online school"). */
const OPT_OUT_ORDER_CODE = 'znanie-online-school';
const COLUMNS = 16;
const INSERT_CHUNK = 500;

/**
 * Demo calls (seed order 50): most demo leads were dialled one to four times by the agents of their
 * order, through the order's numbers. Unanswered and busy attempts are short; answered ones have
 * talk time; some answered calls end with a callback request. Each lead's attempt count matches its calls.
 */
@Injectable()
export class CallsDemoSeed {
  constructor(
    seeder: DemoSeeder,
    private readonly leads: LeadCallAttemptsService,
    private readonly dnc: DncService,
  ) {
    seeder.add({ name: 'calls', order: 50, run: (m) => this.run(m) });
    seeder.add({ name: 'calls:opt-out', order: 56, run: (m) => this.optOut(m) });
  }

  /**
   * An opt-out on a call: the online school's first planned lead already dialled answers one more call and asks not to be called
   * again. As a recorded call with `optOut` does, its number goes on the order's client's list (source call) and its leads stop.
   */
  private async optOut(m: EntityManager): Promise<void> {
    const found: (DemoLead & { clientId: number | null; attemptCount: number; lastCallAt: Date | null })[] = await m.query(
      `SELECT l.id, l.order_id AS "orderId", l.phone, l.created_at AS "createdAt", o.client_id AS "clientId", l.attempt_count AS "attemptCount",
              ARRAY(SELECT sip_endpoint_id FROM order_sip_endpoint s WHERE s.order_id = l.order_id ORDER BY position) AS sips,
              ARRAY(SELECT user_id FROM order_agent a WHERE a.order_id = l.order_id ORDER BY user_id) AS agents,
              (SELECT max(c.created_at) FROM call c WHERE c.lead_id = l.id) AS "lastCallAt"
         FROM lead l JOIN call_order o ON o.id = l.order_id
        WHERE o.code = $1 AND l.planning_call_at IS NOT NULL AND l.attempt_count > 0
        ORDER BY l.id LIMIT 1`,
      [OPT_OUT_ORDER_CODE],
    );
    const statuses = await this.statuses(m);
    const lead = found[0];
    if (!statuses || !lead || lead.sips.length === 0) return;
    // Half an hour ago, or ten minutes after its last call when that was later (never in the future).
    const now = Date.now();
    const at = Math.min(now - 60_000, Math.max(now - 1_800_000, (lead.lastCallAt?.getTime() ?? 0) + 600_000));
    const row = callRow(lead, lead.attemptCount, statuses.answered, statuses, new Date(at), seededRandom(56));
    row[6] = 'outgoing';
    await this.insertCalls(m, [row], true);
    const [{ id }]: { id: number }[] = await m.query(`SELECT id FROM call WHERE platform_call_id = $1`, [row[14]]);
    await this.leads.setAttemptCounts(m, new Map([[lead.id, lead.attemptCount + 1]]));
    await this.dnc.optOutOnCall({ id, phone: lead.phone, orderClientId: lead.clientId }, m);
  }

  private async run(m: EntityManager): Promise<void> {
    const leads: DemoLead[] = await m.query(
      `SELECT l.id, l.order_id AS "orderId", l.phone, l.created_at AS "createdAt",
              ARRAY(SELECT sip_endpoint_id FROM order_sip_endpoint s WHERE s.order_id = l.order_id ORDER BY position) AS sips,
              ARRAY(SELECT user_id FROM order_agent a WHERE a.order_id = l.order_id ORDER BY user_id) AS agents
       FROM lead l ORDER BY l.id`,
    );
    const statuses = await this.statuses(m);
    if (!statuses) return;
    const rnd = seededRandom(20261122);
    const rows: unknown[][] = [];
    const attempts = new Map<number, number>();
    for (const lead of leads) {
      if (lead.sips.length === 0 || rnd() < 0.3) continue;
      const calls = leadCalls(lead, statuses, rnd);
      rows.push(...calls);
      attempts.set(lead.id, calls.length);
    }
    await this.insertCalls(m, rows);
    await this.leads.setAttemptCounts(m, attempts);
  }

  private async statuses(m: EntityManager): Promise<DemoStatuses | null> {
    const statuses: { id: number; category: string; is_callback: boolean }[] = await m.query(`SELECT id, category, is_callback FROM call_status ORDER BY id`);
    const pick = (category: string, callback = false) => statuses.find((s) => s.category === category && s.is_callback === callback)?.id;
    const answered = pick('answered');
    const noAnswer = pick('not-answered');
    const failed = pick('failed');
    const callback = statuses.find((s) => s.is_callback)?.id ?? answered;
    if (!answered || !noAnswer || !failed || !callback) return null;
    return { answered, noAnswer, failed, callback };
  }

  /** Inserts the rows; `optOut`: they recorded an opt-out (their call.created events say so). */
  private async insertCalls(m: EntityManager, rows: unknown[][], optOut = false): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
      const chunk = rows.slice(i, i + INSERT_CHUNK);
      const values = chunk.map((_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')}, ${optOut})`).join(',\n');
      await m.query(
        `INSERT INTO call (order_id, lead_id, user_id, sip_endpoint_id, status_id, finish_initiator, direction,
           total_duration_seconds, wait_time_duration_seconds, talk_time_duration_seconds, is_predictive,
           client_phone, has_records, callback_requested, platform_call_id, created_at, opt_out)
         VALUES ${values}`,
        chunk.flat(),
      );
    }
  }
}

/** One to four attempts at a lead, a few minutes to a day apart; only the last one may reach the client. */
function leadCalls(lead: DemoLead, st: DemoStatuses, rnd: () => number): unknown[][] {
  const rows: unknown[][] = [];
  const count = 1 + Math.floor(rnd() * 4);
  let at = new Date(lead.createdAt).getTime() + 60_000 * (2 + Math.floor(rnd() * 30));
  for (let i = 0; i < count; i++) {
    const last = i === count - 1;
    const roll = rnd();
    const statusId = !last
      ? roll < 0.75
        ? st.noAnswer
        : st.failed
      : roll < 0.55
        ? st.answered
        : roll < 0.7
          ? st.callback
          : roll < 0.9
            ? st.noAnswer
            : st.failed;
    rows.push(callRow(lead, i, statusId, st, new Date(at), rnd));
    at += 60_000 * [5, 30, 120, 1440][Math.min(i, 3)];
  }
  return rows;
}

/** The values of one call, in the order of the INSERT's columns. */
function callRow(lead: DemoLead, i: number, statusId: number, st: DemoStatuses, createdAt: Date, rnd: () => number): unknown[] {
  const reached = statusId === st.answered || statusId === st.callback;
  const wait = reached ? 5 + Math.floor(rnd() * 20) : statusId === st.noAnswer ? 30 + Math.floor(rnd() * 15) : Math.floor(rnd() * 5);
  const talk = reached ? 40 + Math.floor(rnd() * 400) : 0;
  const agent = lead.agents.length && reached ? lead.agents[Math.floor(rnd() * lead.agents.length)] : null;
  return [
    lead.orderId,
    lead.id,
    agent,
    lead.sips[i % lead.sips.length],
    statusId,
    reached ? (rnd() < 0.6 ? 'client' : 'agent') : statusId === st.failed ? 'system' : null,
    rnd() < 0.9 ? 'outgoing' : 'incoming',
    wait + talk + 1,
    wait,
    talk,
    rnd() < 0.4,
    lead.phone.replace(/^\+/, ''),
    reached && talk > 0,
    statusId === st.callback,
    `demo-${lead.id}-${i + 1}`,
    createdAt,
  ];
}
