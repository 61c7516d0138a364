import { CALL_SNAPSHOTS } from './captures/calls';
import { DIALER_SNAPSHOTS } from './captures/dialer';
import { EVENT_SNAPSHOTS } from './captures/events';
import { LEAD_SNAPSHOTS } from './captures/leads';
import { NOTIFICATION_SNAPSHOTS } from './captures/notifications';
import { ORDER_SNAPSHOTS } from './captures/orders';
import { WEBHOOK_SNAPSHOTS } from './captures/webhooks';
import type { SqlSnapshot } from '../../database/sql-snapshot/sql-capture';

/** Every checked-in `.sql` snapshot: the statements the code assembles at run time, per module. */
export const SQL_SNAPSHOTS: SqlSnapshot[] = [
  ...LEAD_SNAPSHOTS,
  ...CALL_SNAPSHOTS,
  ...EVENT_SNAPSHOTS,
  ...ORDER_SNAPSHOTS,
  ...WEBHOOK_SNAPSHOTS,
  ...NOTIFICATION_SNAPSHOTS,
  ...DIALER_SNAPSHOTS,
];
