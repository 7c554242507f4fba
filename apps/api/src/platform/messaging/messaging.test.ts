import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { createOutboxMailer, createSmtpMailer } from './mailer.ts';
import { listOutboxMessages } from './outbox-repository.ts';
import { createHttpSmsSender, createOutboxSmsSender, SmsDeliveryError } from './sms-sender.ts';

describeEachDatabase('the sandbox outbox', (database) => {
  it('keeps mail and SMS in the outbox, newest first per recipient', async () => {
    const mailer = createOutboxMailer(database());
    const sms = createOutboxSmsSender(database());
    await mailer.send({ to: 'Ada@Example.com', subject: 'Welcome', text: 'First' });
    await mailer.send({ to: 'ada@example.com', subject: 'Your code', text: 'Your code is 123456' });
    await sms.send({ to: '+12025550101', text: 'Your code is 4821' });
    const mail = await listOutboxMessages(database(), 'ada@example.com', 10);
    expect(mail.map((row) => row.subject)).toEqual(['Your code', 'Welcome']);
    const texts = await listOutboxMessages(database(), '+12025550101', 10);
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({ channel: 'sms', text_body: 'Your code is 4821' });
  });

  it('refuses an SMS to something that is not an E.164 number', async () => {
    await expect(createOutboxSmsSender(database()).send({ to: '2025550101', text: 'hi' })).rejects.toThrow(/E\.164/);
  });
});

describe('the SMTP mailer', () => {
  const received: { from?: string; to: string[]; subject?: string; text?: string }[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        simpleParser(stream).then(
          (parsed) => {
            received.push({
              from: parsed.from?.text,
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              subject: parsed.subject,
              text: parsed.text,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('delivers a message to a real SMTP server', async () => {
    const mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'Strongroom <no-reply@bank.test>' });
    await mailer.send({ to: 'customer@example.com', subject: 'Verify your email', text: 'Open the link to verify.' });
    mailer.close();
    expect(received).toEqual([
      { from: '"Strongroom" <no-reply@bank.test>', to: ['customer@example.com'], subject: 'Verify your email', text: 'Open the link to verify.\n' },
    ]);
  });

  it('fails loudly when the server cannot be reached', async () => {
    const mailer = createSmtpMailer({ url: 'smtp://127.0.0.1:1', from: 'no-reply@bank.test' });
    await expect(mailer.send({ to: 'customer@example.com', subject: 's', text: 't' })).rejects.toThrow();
    mailer.close();
  });
});

describe('the HTTP SMS provider adapter', () => {
  const requests: { authorization?: string; body: unknown }[] = [];
  let status = 202;
  let url = '';
  const server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      requests.push({ authorization: request.headers.authorization, body: JSON.parse(body) });
      response.writeHead(status).end();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  });
  afterAll(() => void server.close());

  it('posts the message as JSON with the bearer token', async () => {
    await createHttpSmsSender({ url, token: 'provider-token', from: 'Strongroom' }).send({ to: '+12025550101', text: 'Your code is 4821' });
    expect(requests.at(-1)).toEqual({
      authorization: 'Bearer provider-token',
      body: { from: 'Strongroom', to: '+12025550101', text: 'Your code is 4821' },
    });
  });

  it('treats a refusal by the provider as an error the caller can retry', async () => {
    status = 503;
    await expect(createHttpSmsSender({ url }).send({ to: '+12025550101', text: 'x' })).rejects.toBeInstanceOf(SmsDeliveryError);
  });
});
