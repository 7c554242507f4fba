import type { Queryable } from '../../db/database.ts';
import { insertOutboxMessage } from './outbox-repository.ts';

export interface SmsMessage {
  /** E.164, such as +12025550101. */
  to: string;
  text: string;
}

export interface SmsSender {
  send(message: SmsMessage): Promise<void>;
}

const e164Pattern = /^\+[1-9]\d{6,14}$/;
const maximumSmsLength = 640;

function assertSendable(message: SmsMessage): void {
  if (!e164Pattern.test(message.to)) throw new Error('SMS recipient must be an E.164 number');
  if (message.text.length === 0 || message.text.length > maximumSmsLength) throw new Error('SMS text length out of range');
}

/** Sandbox: SMS goes to the outbox table, beside the mail. */
export function createOutboxSmsSender(db: Queryable): SmsSender {
  return {
    async send(message) {
      assertSendable(message);
      await insertOutboxMessage(db, { channel: 'sms', to: message.to, subject: '', text: message.text });
    },
  };
}

export class SmsDeliveryError extends Error {
  constructor(readonly status: number) {
    super(`The SMS provider refused the message with status ${status}`);
    this.name = 'SmsDeliveryError';
  }
}

const providerTimeoutMs = 10_000;

/**
 * Production: a generic HTTP provider adapter. It POSTs `{ from, to, text }` as JSON to `SMS_URL`
 * with `Authorization: Bearer SMS_TOKEN`; a small relay in front of any provider (Twilio, Vonage,
 * an operator gateway) speaks this shape. A non-2xx answer is an error, so the caller can retry.
 */
export function createHttpSmsSender(options: { url: string; token?: string; from?: string; fetch?: typeof fetch }): SmsSender {
  const send = options.fetch ?? fetch;
  return {
    async send(message) {
      assertSendable(message);
      const response = await send(options.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        },
        body: JSON.stringify({ from: options.from, to: message.to, text: message.text }),
        signal: AbortSignal.timeout(providerTimeoutMs),
      });
      if (!response.ok) throw new SmsDeliveryError(response.status);
    },
  };
}
