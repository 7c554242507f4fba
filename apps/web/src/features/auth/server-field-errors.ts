import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../lib/api-client.ts';

/**
 * Puts the server's field messages (`400 validation_failed` with `fields`) under the form's own
 * fields, the first of them focused, such as 'this password is too common', which only the server
 * can check. Answers whether it placed any: if not, the error belongs in the error dialog.
 */
export function showServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
): boolean {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return false;
  let placed = false;
  for (const name of fieldNames) {
    const message = error.fields[name];
    if (message === undefined) continue;
    setError(name, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
