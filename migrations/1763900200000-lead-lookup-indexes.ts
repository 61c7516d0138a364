import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Lead lookups (issue 13): `GET /v2/lead/?phone=` and `?externalIdCrmA=`..`D`, and the upsert's
 * match, read the leads of one key through (key, id): the matches in id order, so a page and the
 * exact count cost what the key's own leads cost, whatever the table holds. The (order_id, phone,
 * id) index serves a phone lookup within orders; (phone, id) one across orders. External ids are
 * often absent: partial indexes skip those rows (nothing to maintain for them on create).
 * Built CONCURRENTLY (the lead table is written all the time).
 */
const INDEXES: [string, string][] = [
  ['lead_phone_id_idx', `lead (phone, id)`],
  ['lead_external_a_id_idx', `lead (external_id_crm_a, id) WHERE external_id_crm_a IS NOT NULL`],
  ['lead_external_b_id_idx', `lead (external_id_crm_b, id) WHERE external_id_crm_b IS NOT NULL`],
  ['lead_external_c_id_idx', `lead (external_id_crm_c, id) WHERE external_id_crm_c IS NOT NULL`],
  ['lead_external_d_id_idx', `lead (external_id_crm_d, id) WHERE external_id_crm_d IS NOT NULL`],
];

export class LeadLookupIndexes1763900200000 implements MigrationInterface {
  name = 'LeadLookupIndexes1763900200000';
  transaction = false;

  async up(q: QueryRunner): Promise<void> {
    for (const [name, on] of INDEXES) {
      // An index an interrupted CONCURRENTLY build left invalid is dropped, to be built again.
      const invalid = (await q.query(`SELECT 1 FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = $1 AND NOT i.indisvalid`, [
        name,
      ])) as unknown[];
      if (invalid.length) await q.query(`DROP INDEX CONCURRENTLY ${name}`);
      await q.query(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${name} ON ${on}`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    for (const [name] of INDEXES) await q.query(`DROP INDEX CONCURRENTLY IF EXISTS ${name}`);
  }
}
