import { describe, expect, it } from 'vitest';
import { contactMessageRequestSchema } from './contact.ts';
import { validationMessages } from './messages.ts';

function fieldErrors(input: unknown): Record<string, string | undefined> {
  const result = contactMessageRequestSchema.safeParse(input);
  if (result.success) return {};
  const errors: Record<string, string | undefined> = {};
  for (const issue of result.error.issues) errors[String(issue.path[0])] ??= issue.message;
  return errors;
}

describe('contact message request', () => {
  it('gives each empty field the seed’s own message', () => {
    expect(fieldErrors({ name: '', email: ' ', phone: '', subject: '', message: '' })).toEqual({
      name: validationMessages.contactName,
      email: validationMessages.contactEmail,
      phone: validationMessages.contactPhone,
      subject: validationMessages.contactSubject,
      message: validationMessages.contactMessage,
    });
  });

  it('rejects an email address without a domain and a phone number without digits', () => {
    const errors = fieldErrors({ name: 'Ada', email: 'ada@', phone: 'call me', subject: 'Hi', message: 'Hello' });
    expect(errors).toEqual({ email: validationMessages.emailInvalid, phone: validationMessages.numberInvalid });
  });

  it('refuses a message longer than 5000 characters', () => {
    const errors = fieldErrors({ name: 'Ada', email: 'ada@example.com', phone: '+1 202 555 0101', subject: 'Hi', message: 'x'.repeat(5_001) });
    expect(errors).toEqual({ message: validationMessages.tooLong });
  });

  it('accepts a complete message and trims the spaces around it', () => {
    const result = contactMessageRequestSchema.parse({
      name: '  Ada Lovelace ',
      email: 'ada@example.com ',
      phone: '+1 202 555 0101',
      subject: 'Opening an account',
      message: 'Hello, I would like to open a savings account.',
    });
    expect(result.name).toBe('Ada Lovelace');
    expect(result.email).toBe('ada@example.com');
  });
});
