import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import { Readable } from 'node:stream';
import { fail, successBody } from './envelope';
import { EnvelopeExpressAdapter } from './envelope-express-adapter';

describe('successBody', () => {
  it('wraps a result, turns nothing into [] and passes a failure envelope through', () => {
    expect(successBody({ id: 1 })).toEqual({ success: true, message: '', data: { id: 1 } });
    expect(successBody(undefined)).toEqual({ success: true, message: '', data: [] });
    expect(successBody(null)).toEqual({ success: true, message: '', data: [] });
    expect(successBody([])).toEqual({ success: true, message: '', data: [] });
    const failure = fail('One or more components are unavailable', { database: 'down' });
    expect(successBody(failure)).toBe(failure);
  });
});

describe('EnvelopeExpressAdapter', () => {
  afterEach(() => jest.restoreAllMocks());

  it("hands Express's reply what handlers return in the envelope, Nest's own error replies and streams as they are", () => {
    const sent: unknown[][] = [];
    jest.spyOn(ExpressAdapter.prototype, 'reply').mockImplementation((_res: unknown, body: unknown, status?: number) => sent.push([body, status]));
    const adapter = new EnvelopeExpressAdapter();
    adapter.reply({}, { id: 7 });
    adapter.reply({}, undefined);
    adapter.reply({}, { id: 8 }, 201);
    const error = { statusCode: 404, message: 'Not Found' };
    adapter.reply({}, error, 404);
    const file = new StreamableFile(Readable.from(['x']));
    adapter.reply({}, file);
    expect(sent).toEqual([
      [{ success: true, message: '', data: { id: 7 } }, undefined],
      [{ success: true, message: '', data: [] }, undefined],
      [{ success: true, message: '', data: { id: 8 } }, 201],
      [error, 404],
      [file, undefined],
    ]);
    expect(sent[4][0]).toBe(file);
  });
});
