import nodemailer from 'nodemailer';
import type { Queryable } from '../../db/database.ts';
import { insertOutboxMessage } from './outbox-repository.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends mail. Features never know which driver is behind it. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Sandbox: mail goes to the outbox table, readable at /dev/mail. Nothing leaves the machine. */
export function createOutboxMailer(db: Queryable): Mailer {
  return {
    async send(message) {
      await insertOutboxMessage(db, { channel: 'email', ...message });
    },
  };
}

/** Production: SMTP through nodemailer, configured by one `SMTP_URL`. */
export function createSmtpMailer(options: { url: string; from: string }): Mailer & { close(): void } {
  const transport = nodemailer.createTransport(options.url);
  return {
    async send(message) {
      await transport.sendMail({ from: options.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
    },
    close() {
      transport.close();
    },
  };
}
