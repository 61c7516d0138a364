import { DELIVER_QUEUE } from '../src/modules/notifications/notification-delivery.service';
import { createSiblingApp, createTestApp, TestApp } from './support/test-app';

/** Queue settings that come from configuration follow the configuration on every start. */
describe('queue settings on an existing database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ NOTIFICATION_RETRY_LIMIT: '5', NOTIFICATION_RETRY_DELAY_SECONDS: '2' });
  });
  afterAll(async () => {
    await t.close();
  });

  const settings = async () =>
    (await t.ds.query(`SELECT retry_limit AS "retryLimit", retry_delay AS "retryDelay" FROM pgboss.queue WHERE name = $1`, [DELIVER_QUEUE]))[0];

  it('takes NOTIFICATION_RETRY_LIMIT and _DELAY_SECONDS of a later start, not only of the first', async () => {
    expect(await settings()).toEqual({ retryLimit: 5, retryDelay: 2 });
    const restarted = await createSiblingApp(t, { notificationRetryLimit: 2, notificationRetryDelaySeconds: 30 });
    try {
      expect(await settings()).toEqual({ retryLimit: 2, retryDelay: 30 });
    } finally {
      await restarted.close();
    }
  });
});
