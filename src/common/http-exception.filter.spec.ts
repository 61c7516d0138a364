import { ArgumentsHost, Logger } from '@nestjs/common';
import { COMMON_ERRORS, DomainError } from './domain-error';
import { ApiExceptionFilter } from './http-exception.filter';

/** A host whose response records what the filter sends. */
function fakeHost(requestId: string) {
  const sent: { status?: number; body?: unknown } = {};
  const res = {
    headersSent: false,
    setHeader: () => undefined,
    status(code: number) {
      sent.status = code;
      return this;
    },
    json(body: unknown) {
      sent.body = body;
      return this;
    },
  };
  const host = { switchToHttp: () => ({ getResponse: () => res, getRequest: () => ({ requestId }) }) } as unknown as ArgumentsHost;
  return { host, sent };
}

describe('ApiExceptionFilter logging of domain errors', () => {
  let logged: string[];
  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'log').mockImplementation((msg: unknown) => void logged.push(String(msg)));
  });
  afterEach(() => jest.restoreAllMocks());

  it('logs a 4xx as its status and catalogue code, never the message or the field errors', () => {
    const { host, sent } = fakeHost('r-1');
    const error = DomainError.invalidField('phone', 'must be a phone number, got +79991234567', COMMON_ERRORS.UNSAFE_INPUT);
    new ApiExceptionFilter().catch(error, host);
    expect(sent.status).toBe(400);
    expect(logged).toEqual(['400 UNSAFE_INPUT [request r-1]']);
  });

  it('uses the generic code when a module names none', () => {
    const { host, sent } = fakeHost('r-2');
    new ApiExceptionFilter().catch(DomainError.notFound('Lead', 7), host);
    expect(sent.status).toBe(404);
    expect(logged).toEqual(['404 NOT_FOUND [request r-2]']);
  });
});
