import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';

/**
 * Puts the server's field messages (`400 validation_failed` with `fields`) under the form's own
 * fields, the first of them focused, such as 'this password is too common', which only the server
 * can check. `renamed` maps a wire name to the form's (payments send `amountCents` for the
 * `amount` field). Answers whether it placed any: if not, the error belongs in the error dialog.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
  renamed: Readonly<Record<string, string>> = {},
): boolean {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return false;
  let placed = false;
  for (const [serverField, message] of Object.entries(error.fields)) {
    const formField = renamed[serverField] ?? serverField;
    const name = fieldNames.find((candidate) => candidate === formField);
    if (name === undefined) continue;
    setError(name, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}

/** Payment forms ask for dollars in `amount`; the wire carries cents in `amountCents`. */
export const paymentFieldNames: Readonly<Record<string, string>> = { amountCents: 'amount' };
