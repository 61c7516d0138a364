import type { Audience } from '../../../modules/notifications/domain/notification';
import { NotificationsRepository } from '../../../modules/notifications/persistence/notifications.repository';
import { RecordingDatabase, sent, SqlCapture, SqlSnapshot } from '../sql-capture';
import { describeInputs, LIMIT } from './inputs';

const repo = (db: RecordingDatabase) => new NotificationsRepository(db.asDataSource());

function fanOut(note: string, audience: Audience): SqlCapture {
  const channels = { email: true, messenger: false };
  return sent({ fn: 'NotificationsRepository.fanOut', note, inputs: describeInputs({ notificationId: 9, audience, type: 'urgent', channels }) }, (db) =>
    repo(db).fanOut(db.asManager(), 9, audience, 'urgent', channels),
  );
}

export const NOTIFICATION_SNAPSHOTS: SqlSnapshot[] = [
  {
    file: 'src/modules/notifications/persistence/notifications.repository.sql',
    captures: [
      fanOut('a group: its active users', { scope: 'group', group: 'admin' }),
      fanOut('one user', { scope: 'private', userId: 7 }),
      fanOut('everyone: every active user', { scope: 'public' }),
      sent({ fn: 'NotificationsRepository.listForUser', note: 'count, then the page', inputs: describeInputs({ userId: 7, offset: 0, limit: LIMIT }) }, (db) =>
        repo(db).listForUser(7, 0, LIMIT),
      ),
    ],
  },
];
