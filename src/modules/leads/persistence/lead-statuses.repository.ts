import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { CallStatus, LeadStatus } from '../domain/lead-status';

@Injectable()
export class LeadStatusesRepository {
  constructor(private readonly ds: DataSource) {}

  listLeadStatuses(): Promise<LeadStatus[]> {
    return this.ds.query(`SELECT id, title, category, is_default AS "isDefault" FROM lead_status ORDER BY id`);
  }

  listCallStatuses(): Promise<CallStatus[]> {
    return this.ds.query(`SELECT id, title, category, is_callback AS "isCallback" FROM call_status ORDER BY id`);
  }
}
