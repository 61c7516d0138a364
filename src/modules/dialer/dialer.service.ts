import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { DomainError } from '../../common/domain-error';
import type { Page } from '../../common/envelope';
import { LeadCallableService } from '../leads/lead-callable.service';
import { LeadDialingService } from '../leads/lead-dialing.service';
import { callEndsClaim, type ClaimedLead, type ClaimRequest, type Confirmation, type DialerClaim, type DueLead } from './domain/claim';
import { ClaimCredits, type OrderQueue, queueOrder, readAgain, readQuotas, shareByWeight } from './domain/claim-share';
import { DIALER_ERRORS } from './domain/dialer.errors';
import { DialerMetrics } from './dialer-metrics';
import { DialerClaimsRepository } from './persistence/dialer-claims.repository';

/**
 * The dialer's side: claims of due leads with a lease, their release, the last look before dialling, and the end of a claim by a
 * recorded call. A claim reads the stored dialing decision (LeadDialingService writes it) and the rule `callable` explains, and
 * never decides again; a lead is held by at most one live claim (dialer_claim's key, see DialerClaimsRepository.insertClaims).
 */
@Injectable()
export class DialerService {
  /** What each order is owed by this instance's claims (shareByWeight): every order gets its weight's share over claims. */
  private readonly credits = new ClaimCredits();

  constructor(
    private readonly ds: DataSource,
    private readonly repo: DialerClaimsRepository,
    private readonly callable: LeadCallableService,
    private readonly dialing: LeadDialingService,
    private readonly metrics: DialerMetrics,
  ) {}

  /**
   * Up to `limit` leads callable now that no live claim holds, shared across the orders by their weights, in queue order
   * (priority, planned time, id). Two statements in one transaction: the due leads locked (parallel claims skip each other's),
   * then the claims written.
   */
  async claim(req: ClaimRequest, now = new Date()): Promise<ClaimedLead[]> {
    const leaseExpiresAt = new Date(now.getTime() + req.leaseSeconds * 1000);
    const orders = await this.dialingOrders(req.orderIds);
    if (orders.length === 0) return [];
    // Read before the transaction: a second pool connection asked for while it holds one could wait for ever under load.
    const callableNow = await this.callable.callableNowJudge(orders, now);
    const quotas = readQuotas(
      orders.map((o) => ({ id: o.id, weight: o.dialWeight })),
      req.limit,
    );
    const claimed = await this.ds.transaction(async (m) => {
      const due = await this.repo.lockDueLeads(m, quotas, now);
      const again = readAgain(quotas, due, req.limit);
      if (again.length) {
        // Fewer than asked: the orders whose queue came back full may have more (one more statement, rare).
        const seen = new Set(due.map((l) => l.leadId));
        const more = await this.repo.lockDueLeads(m, new Map(again.map((id) => [id, req.limit])), now);
        due.push(...more.filter((l) => !seen.has(l.leadId)));
      }
      // Leads a parallel claim took just before this one locked them are left out before the share is made, but still count as read:
      // an order whose callable leads came back full keeps gaining its weight, whoever took some of them (shareByWeight).
      const taken = await this.repo.liveClaimedAmong(m, due, now);
      const queues: OrderQueue<DueLead>[] = orders.map((o) => {
        const read = due.filter((l) => l.orderId === o.id && callableNow(l));
        const leads = read.filter((l) => !taken.has(l.leadId)).sort(queueOrder);
        return { orderId: o.id, weight: o.dialWeight, leads, full: read.length >= (quotas.get(o.id) ?? 0) };
      });
      const picked = shareByWeight(queues, req.limit, this.credits);
      const { claims, expired } = await this.repo.insertClaims(m, picked, req.dialerId, now, leaseExpiresAt);
      const byLead = new Map(claims.map((c) => [c.leadId, c]));
      const leads = picked.flatMap((l) => {
        const c = byLead.get(l.leadId);
        return c ? [{ ...l, claimToken: c.claimToken, leaseExpiresAt: c.leaseExpiresAt }] : [];
      });
      return { leads, expired };
    });
    // Counted once committed.
    this.metrics.expired(claimed.expired);
    this.metrics.claimed(claimed.leads.length);
    return claimed.leads;
  }

  /**
   * Gives the leads of these live claims back unused: due again at once, or, with `retryAfterSeconds`, wanted not before then
   * (the decision places the call in its window). Tokens that are no live claim are skipped; how many claims ended.
   */
  async release(tokens: string[], retryAfterSeconds: number | undefined, now = new Date()): Promise<number> {
    const ended = await this.ds.transaction(async (m) => {
      if (retryAfterSeconds) {
        // The leads' rows are locked (by the decision) before their claims end: a claim locks a lead before it writes its claim.
        const live = await this.repo.liveClaims(m, tokens, now);
        await this.dialing.defer(
          m,
          live.map((c) => c.leadId),
          new Date(now.getTime() + retryAfterSeconds * 1000),
          now,
        );
      }
      return this.repo.endClaims(m, tokens, now);
    });
    this.metrics.released(ended.length);
    return ended.length;
  }

  /**
   * The last look before dialling, per token: a live claim whose lead `callable` still calls callable now is dialable; one a rule
   * now holds is not (the decision's reasons) and its claim ends; a token that is no live claim is not (`claim_ended`).
   */
  async confirm(tokens: string[], now = new Date()): Promise<Confirmation[]> {
    const live = new Map((await this.repo.liveClaims(this.ds.manager, tokens, now)).map((c) => [c.claimToken, c]));
    // One read of the claimed leads and each order's facts once, however many tokens.
    const callable = await this.callable.callableMany(
      [...live.values()].map((c) => c.leadId),
      now,
    );
    const refused: string[] = [];
    const answers: Confirmation[] = [];
    for (const claimToken of tokens) {
      const claim = live.get(claimToken);
      const c = claim && callable.get(claim.leadId);
      if (!c) {
        answers.push({ claimToken, dialable: false, reasons: ['claim_ended'] });
        continue;
      }
      if (!c.callableNow) refused.push(claimToken);
      answers.push({ claimToken, dialable: c.callableNow, reasons: c.reasons });
    }
    if (refused.length) await this.repo.endClaims(this.ds.manager, refused, now);
    this.metrics.refused(refused.length);
    return answers;
  }

  /**
   * In a recorded call's transaction, under the lead's row lock: the call ends the lead's claim. With a token, it must be the
   * lead's live claim (else 409: expired, ended, or another lead's); without one, any claim of the lead ends.
   */
  async endOnCall(m: EntityManager, lead: { id: number; orderId: number }, claimToken: string | null | undefined, now = new Date()): Promise<void> {
    if (!(await this.repo.endClaimOfLead(m, lead.orderId, lead.id, claimToken ?? undefined, now))) {
      throw DomainError.conflict(DIALER_ERRORS.CLAIM_NOT_LIVE, `claimToken is not a live claim of lead ${lead.id}`);
    }
  }

  /**
   * For calls recorded in a batch, before they are stored: of each call that names a claim token, whether the token is its lead's live
   * claim (endOnCall's 409 otherwise). The leads' claims stay locked until `m` ends; endOnCalls then ends them.
   */
  async checkCallTokens(
    m: EntityManager,
    calls: readonly { orderId: number; leadId: number; claimToken?: string | null }[],
    now = new Date(),
  ): Promise<boolean[]> {
    const claims = await this.repo.lockClaimsOfLeads(m, calls, now);
    return calls.map((c) => callEndsClaim(c.claimToken, claims.get(c.leadId)));
  }

  /** The recorded calls end their leads' claims (calls recorded in a batch, tokens checked by checkCallTokens). */
  endOnCalls(m: EntityManager, leads: readonly { orderId: number; leadId: number }[]): Promise<void> {
    return this.repo.endClaimsOfLeads(m, leads);
  }

  /** Live claims for operators, filtered by order and dialer; exact total. */
  listClaims(filter: { orderId?: number; dialerId?: string }, offset: number, limit: number, now = new Date()): Promise<Page<DialerClaim>> {
    return this.repo.listLive(filter, now, offset, limit);
  }

  /** Deletes expired claims (their leads were already claimable again); how many. */
  async sweepExpired(now = new Date()): Promise<number> {
    const n = await this.repo.deleteExpired(now);
    this.metrics.expired(n);
    return n;
  }

  /** The orders a claim reaches: those named (each must exist; 400 naming the first missing), else every order that dials. */
  private async dialingOrders(ids: number[] | undefined) {
    const orders = await this.repo.claimOrders(this.ds.manager, ids ? [...new Set(ids)] : undefined);
    const missing = ids?.find((id) => !orders.some((o) => o.id === id));
    if (missing !== undefined) throw DomainError.invalidField('orderIds', `order ${missing} does not exist`);
    return orders.filter((o) => o.autoDialingEnabled);
  }
}
