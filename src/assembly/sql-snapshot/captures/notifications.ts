import { NotificationsRepository } from '../../../modules/notifications/persistence/notifications.repository';
import { RecordingDatabase, sent, SqlSnapshot } from '../../../database/sql-snapshot/sql-capture';
import { describeInputs, LIMIT } from './inputs';

const repo = (db: RecordingDatabase) => new NotificationsRepository(db.asDataSource());

export const NOTIFICATION_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/notifications/persistence/notifications.repository.sql',
    captures: [
      sent({ fn: 'NotificationsRepository.listForUser', note: 'count, then the page', inputs: describeInputs({ userId: 7, offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listForUser(7, 0, LIMIT),
      ),
    ],
  },
];
