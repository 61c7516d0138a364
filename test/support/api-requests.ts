import request from 'supertest';
import type { TestApp } from './test-app';

/** A UTC timestamp as the v2 presenters write it. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/;

/**
 * GET and POST with the all-scopes key (or the key given). Takes the app lazily: spec files
 * create it in `beforeAll`, after these helpers are bound at describe time.
 */
export function apiRequests(app: () => TestApp) {
  const post = (path: string, body: unknown, key?: string) =>
    request(app().http)
      .post(path)
      .set('X-Api-Key', key ?? app().apiKey)
      .send(body as object);
  const get = (path: string, key?: string) =>
    request(app().http)
      .get(path)
      .set('X-Api-Key', key ?? app().apiKey);
  return { post, get };
}

/** The requests and reads the lead specs share. */
export function leadRequests(app: () => TestApp) {
  const { post, get } = apiRequests(app);
  /** Leads in the database matching `where` (SQL). */
  const leadCount = async (where = 'true', params: unknown[] = []) =>
    (await app().ds.query(`SELECT count(*)::int AS n FROM lead WHERE ${where}`, params))[0].n as number;
  /** GET /v2/lead/detail/{id}/, expecting 200. */
  const detail = async (id: number) => (await get(`/v2/lead/detail/${id}/`).expect(200)).body.data;
  /** The list form of a lead (it carries the duplicate links detail leaves out). */
  const listItem = async (id: number, orderId: number) => {
    const res = await get(`/v2/lead/?orderIds[]=${orderId}&limit=100`).expect(200);
    return res.body.data.list.find((l: { id: number }) => l.id === id);
  };
  return { post, get, leadCount, detail, listItem };
}

/** The requests and reads the order specs share. */
export function orderRequests(app: () => TestApp) {
  const { post, get } = apiRequests(app);
  /** GET /v2/order/detail/{id}/, expecting 200. */
  const detail = async (id: number) => (await get(`/v2/order/detail/${id}/`).expect(200)).body.data;
  return { post, get, detail };
}
