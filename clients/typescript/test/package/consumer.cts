// An integrator's CommonJS code, type-checked against the installed package (its `require` types)
// under moduleResolution node16, strict with verbatimModuleSyntax.
import callCenter = require('@callcenter/integration-client');
import type { Schema, WebhookEvent } from '@callcenter/integration-client';

const api = callCenter.createCallCenterClient({ baseUrl: 'https://callcenter.example.com', apiKey: 'cck_example' });

async function main(): Promise<void> {
  const { data, error } = await api.POST('/v2/lead/create', {
    body: { leadType: 'straight', phone: '+79161234567', orderId: 1, orderCode: 'novostroyki-moskvy' },
    headers: { 'Idempotency-Key': 'crm-lead-100' },
  });
  if (error) throw new Error(error.message);
  const lead: Schema<'LeadV2View'> | undefined = (await api.GET('/v2/lead/detail/{leadId}', { params: { path: { leadId: data.data.id } } })).data?.data;
  // @ts-expect-error no such path
  await api.GET('/v2/no-such-path');
  const event: WebhookEvent = callCenter.verifyWebhook('whsec_', '{}', new Headers());
  console.log(lead?.id, event.type);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
