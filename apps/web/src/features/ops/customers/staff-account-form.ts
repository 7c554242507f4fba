import type { z } from 'zod';

/** The first message of each field a contract schema refused, for a dialog's fields. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const name = String(issue.path[0] ?? '_');
    fields[name] ??= issue.message;
  }
  return fields;
}
