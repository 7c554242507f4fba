import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { expect, it } from 'vitest';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';
import { listOutboxMessages } from '../../platform/messaging/outbox-repository.ts';
import { runOpsCommand } from '../ops/registry.ts';
import { contactMessagesPerHourPerAddress } from './routes.ts';

const validMessage = {
  name: 'Grace Hopper',
  email: 'grace@example.com',
  phone: '+1 202 555 0101',
  subject: 'Opening a savings account',
  message: 'What do I need to bring to open a Standard Savings Account?',
};

describeEachDatabase('POST /api/v1/contact', (database) => {
  let app: FastifyInstance;
  let config: Config;
  testAppSuite(database, (built) => ({ app, config } = built));

  const send = (payload: unknown, remoteAddress = '198.51.100.1') =>
    app.inject({ method: 'POST', url: '/api/v1/contact', payload: payload as object, remoteAddress });

  it("answers an empty form with the seed's five messages and stores nothing", async () => {
    const response = await send({ name: '', email: '', phone: '', subject: '', message: '' });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.fields).toEqual({
      name: 'Please enter your name',
      email: 'Please enter your email',
      phone: 'Please enter your number',
      subject: 'Please enter your subject',
      message: 'Write your message',
    });
    expect(await database().query('SELECT 1 FROM contact_messages')).toHaveLength(0);
  });

  it('refuses an email that is not one', async () => {
    const response = await send({ ...validMessage, email: 'grace-at-example' });
    expect(response.json().error.fields).toEqual({ email: 'email is not valid' });
  });

  it('stores the message for staff and acknowledges it by email', async () => {
    const response = await send(validMessage, '198.51.100.2');
    expect(response.statusCode).toBe(201);
    expect(response.json().message).toMatch(/within 24 hours/);
    const [stored] = await database().query<{ name: string; subject: string; ip: string }>('SELECT name, subject, ip FROM contact_messages');
    expect(stored).toEqual({ name: 'Grace Hopper', subject: 'Opening a savings account', ip: '198.51.100.2' });

    await app.services.jobs.runOnce();
    const [mail] = await listOutboxMessages(database(), 'grace@example.com', 5);
    expect(mail?.subject).toBe('We received your message: Opening a savings account');
    expect(mail?.text_body).toContain('Hello Grace Hopper');

    const listed = await runOpsCommand({ database: async () => database(), config }, 'contact-messages', ['--limit', '5']);
    expect(JSON.parse(listed.output)[0]).toMatchObject({ name: 'Grace Hopper', subject: 'Opening a savings account', answered: false });
  });

  it('limits how many messages one address can send in an hour', async () => {
    const address = '198.51.100.77';
    for (let index = 0; index < contactMessagesPerHourPerAddress; index++) {
      expect((await send(validMessage, address)).statusCode).toBe(201);
    }
    const limited = await send(validMessage, address);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await send(validMessage, '198.51.100.78')).statusCode).toBe(201);
  });
});
