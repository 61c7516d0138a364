import { smtpFailure } from './email.channel';

describe('smtpFailure', () => {
  it('keeps the codes and the reason of a refused recipient, never the address', () => {
    // The shape nodemailer gives a refused RCPT (SMTPConnection._formatError), with Postfix's reply.
    const reply = '550 5.1.1 <anna.petrova@example.com>: Recipient address rejected: User unknown in virtual mailbox table';
    const err = Object.assign(new Error(`Can't send mail - all recipients were rejected: ${reply}`), {
      code: 'EENVELOPE',
      response: reply,
      responseCode: 550,
      command: 'RCPT TO',
      rejected: ['anna.petrova@example.com'],
    });
    const line = smtpFailure(err);
    expect(line).toBe('SMTP EENVELOPE 550 at RCPT TO: 550 5.1.1 <<e-mail>>: Recipient address rejected: User unknown in virtual mailbox table');
    expect(line).not.toContain('anna');
  });

  it('describes a connection failure by its code and message', () => {
    expect(smtpFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ESOCKET', command: 'CONN' }))).toBe(
      'SMTP ESOCKET at CONN: connect ECONNREFUSED 127.0.0.1:9',
    );
  });
});
