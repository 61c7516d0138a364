import { Injectable } from '@nestjs/common';
import type { CallStatus, LeadStatus } from './domain/lead-status';
import { LeadStatusesRepository } from './persistence/lead-statuses.repository';

/**
 * The lead and call status catalogues (created by migration, rarely changed): read through a
 * per-instance cache of `cacheTtlMs` (5 s), so lead writes do not query them each time.
 */
@Injectable()
export class LeadStatusesService {
  cacheTtlMs = 5000;
  private cached?: { leadStatuses: LeadStatus[]; expiresAt: number };

  constructor(private readonly repo: LeadStatusesRepository) {}

  async leadStatuses(): Promise<LeadStatus[]> {
    const now = Date.now();
    if (this.cached && this.cached.expiresAt > now) return this.cached.leadStatuses;
    const leadStatuses = await this.repo.listLeadStatuses();
    this.cached = { leadStatuses, expiresAt: now + this.cacheTtlMs };
    return leadStatuses;
  }

  callStatuses(): Promise<CallStatus[]> {
    return this.repo.listCallStatuses();
  }
}
