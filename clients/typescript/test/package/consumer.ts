// An integrator's ES module code, type-checked against the installed package under moduleResolution
// bundler (as consumer.ts) and node16 (as consumer.mts), both strict with verbatimModuleSyntax.
import type { IncomingHttpHeaders } from 'node:http';
import {
  createCallCenterClient,
  verifyWebhook,
  WebhookVerificationError,
  type CallCenterClient,
  type Schema,
  type WebhookEvent,
} from '@callcenter/integration-client';

export const api: CallCenterClient = createCallCenterClient({ baseUrl: 'https://callcenter.example.com', apiKey: 'cck_example' });

export async function createLead(phone: string): Promise<number> {
  const { data, error } = await api.POST('/v2/lead/create', {
    body: { leadType: 'straight', phone, orderId: 1, orderCode: 'novostroyki-moskvy' },
    headers: { 'Idempotency-Key': `crm-lead-${phone}` },
  });
  if (error) throw new Error(error.message);
  return data.data.id;
}

export async function callable(leadId: number): Promise<Schema<'LeadCallableView'> | undefined> {
  const { data } = await api.GET('/v2/lead/callable/{leadId}', { params: { path: { leadId } } });
  // @ts-expect-error a path parameter is a number
  await api.GET('/v2/lead/callable/{leadId}', { params: { path: { leadId: 'one' } } });
  // @ts-expect-error no such path
  await api.GET('/v2/no-such-path');
  return data?.data;
}

/** Every header and body shape verifyWebhook takes; the event is narrowed by its type. */
export function onDelivery(secret: string, fetchHeaders: Headers, nodeHeaders: IncomingHttpHeaders, record: Record<string, string>): WebhookEvent[] {
  const events = [
    verifyWebhook(secret, '{}', fetchHeaders),
    verifyWebhook(secret, Buffer.from('{}'), nodeHeaders),
    verifyWebhook(secret, new Uint8Array(2), record, { toleranceSeconds: 60 }),
  ];
  for (const event of events) if (event.type === 'lead.created') console.log(event.data.lead.id);
  // @ts-expect-error a body is text or bytes
  verifyWebhook(secret, 42, record);
  return events;
}

export const isVerificationError = (err: unknown): boolean => err instanceof WebhookVerificationError;
