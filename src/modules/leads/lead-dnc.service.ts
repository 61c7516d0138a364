import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type DncListScope, LeadDncRepository } from './persistence/lead-dnc.repository';

/** What a do-not-call list does to leads: the dnc module asks, inside its own transaction. */
@Injectable()
export class LeadDncService {
  constructor(private readonly repo: LeadDncRepository) {}

  /** Stops the planned calls of the leads of `phones` that `list` covers; how many stopped. */
  stopPlanned(phones: string[], list: DncListScope, m: EntityManager): Promise<number> {
    return this.repo.stopPlanned(phones, list, m);
  }

  isBlocked(leadId: number, at: Date): Promise<boolean> {
    return this.repo.isBlocked(leadId, at);
  }
}
