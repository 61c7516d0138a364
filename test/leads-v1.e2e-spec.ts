import { createLead, createLeadOrder, testPhone, TestOrder } from './factories/leads';
import { leadRequests } from './support/api-requests';
import { createTestApp, TestApp } from './support/test-app';

/** /v1/lead/: create, update and detail as a translation over the v2 service; the two views agree. */

describe('leads: v1', () => {
  let t: TestApp;
  let order: TestOrder;
  const { post, get, leadCount, detail } = leadRequests(() => t);

  beforeAll(async () => {
    t = await createTestApp({ ORDER_SETTINGS_CACHE_TTL_MS: '0' });
    order = await createLeadOrder(t, { defaultUtcOffset: 5 });
  });
  afterAll(async () => {
    await t.close();
  });

  describe('v1', () => {
    it('creates, updates and reads the same lead as v2: the two views agree', async () => {
      const created = await post('/v1/lead/create/', {
        lead_type: 'straight',
        client_phone: '375291112233',
        order_id: order.id,
        order_code: order.code,
        messengerId: 5550001,
        socialAId: 777,
        socialBLogin: 'ivan.b',
        client_name: 'Иван',
        quiz_log: 'answers',
        campaign_id: 'cmp-1',
        external_id: 'EXT-1',
        priority: 2,
        utc_offset: 4,
      }).expect(200);
      const id = created.body.data.id;
      expect(created.body).toEqual({ success: true, message: '', data: { id: expect.any(Number) } });
      const v1 = (await get(`/v1/lead/detail/${id}/`).expect(200)).body.data;
      const v2 = await detail(id);
      expect(v1).toEqual({
        ID: id,
        UF_NAME: 'Иван',
        UF_PHONE: '+375291112233',
        UF_QUIZ_LOG: 'answers',
        UF_USER_IP: '',
        UF_CAMPAIGN_ID: 'cmp-1',
        UF_ADDITIONAL_PARAMS: '',
        UF_EXTERNAL_ID: 'EXT-1',
        UF_STATUS: '1',
        UF_LEAD_TYPE: 'straight',
        UF_CREATE_METHOD: 'API',
        UF_CITY: null,
        UF_FAIL_ORDERS: null,
        UF_OBJECTS: null,
        UF_IS_SECONDARY: false,
        UF_PREVIOUS_LEAD: null,
        UF_NEXT_LEAD: null,
        UF_CALL_DATE_TIME: Math.floor(Date.parse(v2.planningCallDateTime) / 1000),
        UF_CALL_PRIORITY: 2,
        UF_CLIENT_UTC_OFFSET: 4,
        UF_PREPARE_IS_FINISHED: 1,
        UF_DATE_CREATE: v2.createdAt,
        UF_DATE_UPDATE: v2.updatedAt,
        UF_ORDER: order.id,
        UF_SELECTION_TYPE: '',
        socialAId: '777',
        socialBLogin: 'ivan.b',
        messengerUserName: '',
        messengerPhone: '',
      });
      expect(v2).toMatchObject({
        name: 'Иван',
        phone: '+375291112233',
        sourceComment: 'answers',
        adCampaignId: 'cmp-1',
        externalIdCrmA: 'EXT-1',
        priority: 2,
        utcOffset: 4,
        socialAId: '777',
      });

      const callAt = 1893456000; // 2030-01-01T00:00:00Z
      await post(`/v1/lead/update/${id}`, {
        client_name: 'Иван Иванов',
        status: 2,
        call_timestamp: callAt,
        messengerUserName: 'ivan',
        messengerPhone: '+375291112233',
        socialAId: '778',
        external_id: 'EXT-2',
      }).expect(200);
      const v1b = (await get(`/v1/lead/detail/${id}`).expect(200)).body.data;
      const v2b = await detail(id);
      expect([v1b.UF_NAME, v1b.UF_STATUS, v1b.UF_CALL_DATE_TIME, v1b.messengerUserName, v1b.socialAId, v1b.UF_EXTERNAL_ID]).toEqual([
        'Иван Иванов',
        '2',
        callAt,
        'ivan',
        '778',
        'EXT-2',
      ]);
      expect([v2b.name, v2b.statusId, v2b.planningCallDateTime, v2b.messengerUserName, v2b.socialAId]).toEqual([
        'Иван Иванов',
        2,
        '2030-01-01T00:00:00+00:00',
        'ivan',
        '778',
      ]);
    });

    it('requires lead_type, client_phone, order_id, order_code and names v1 fields in errors', async () => {
      const before = await leadCount();
      const res = await post('/v1/lead/create/', { client_phone: '79161234567' }).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual(expect.arrayContaining(['lead_type', 'order_id', 'order_code']));
      const phone = await post('/v1/lead/create/', { lead_type: 'straight', client_phone: '8916', order_id: order.id, order_code: order.code }).expect(400);
      expect(phone.body.data.errors).toEqual([{ field: 'client_phone', message: expect.any(String) }]);
      const mismatch = await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: 'nope' }).expect(400);
      expect(mismatch.body.data.errors[0].field).toBe('order_code');
      await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code, messengerId: 0 }).expect(
        400,
      );
      await post('/v1/lead/create/', { lead_type: 'straight', client_phone: testPhone(), order_id: order.id, order_code: order.code, socialAId: -1 }).expect(
        400,
      );
      await post('/v1/lead/create/', {
        lead_type: 'straight',
        client_phone: testPhone(),
        order_id: order.id,
        order_code: order.code,
        campaign_id: 'x'.repeat(65),
      }).expect(400);
      expect(await leadCount()).toBe(before);
      const id = (await post('/v1/lead/update/99999999/', { client_name: 'x' }).expect(404)).body;
      expect(id.success).toBe(false);
      const lead = await createLead(t, order);
      const badStatus = await post(`/v1/lead/update/${lead}/`, { status: 999999 }).expect(400);
      expect(badStatus.body.data.errors[0].field).toBe('status');
      await post(`/v1/lead/update/${lead}/`, { call_timestamp: -1 }).expect(400);
      await get('/v1/lead/detail/99999999/').expect(404);
    });
  });
});
