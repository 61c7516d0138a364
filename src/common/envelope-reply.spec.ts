import { StreamableFile } from '@nestjs/common';
import type { ExpressAdapter } from '@nestjs/platform-express';
import { Readable } from 'node:stream';
import { fail } from './envelope';
import { replyWithEnvelope, successBody } from './envelope-reply';

describe('the success envelope at reply', () => {
  it('wraps a result, turns nothing into [] and passes a failure envelope through', () => {
    expect(successBody({ id: 1 })).toEqual({ success: true, message: '', data: { id: 1 } });
    expect(successBody(undefined)).toEqual({ success: true, message: '', data: [] });
    expect(successBody(null)).toEqual({ success: true, message: '', data: [] });
    expect(successBody([])).toEqual({ success: true, message: '', data: [] });
    const failure = fail('One or more components are unavailable', { database: 'down' });
    expect(successBody(failure)).toBe(failure);
  });

  it("wraps what handlers return, not Nest's own error replies or streams", () => {
    const sent: unknown[] = [];
    const adapter = { reply: (_res: unknown, body: unknown) => sent.push(body) } as unknown as ExpressAdapter;
    replyWithEnvelope(adapter);
    adapter.reply({}, { id: 7 });
    adapter.reply({}, undefined);
    adapter.reply({}, { id: 8 }, 201);
    const error = { statusCode: 404, message: 'Not Found' };
    adapter.reply({}, error, 404);
    const file = new StreamableFile(Readable.from(['x']));
    adapter.reply({}, file);
    expect(sent).toEqual([
      { success: true, message: '', data: { id: 7 } },
      { success: true, message: '', data: [] },
      { success: true, message: '', data: { id: 8 } },
      error,
      file,
    ]);
    expect(sent[4]).toBe(file);
  });
});
