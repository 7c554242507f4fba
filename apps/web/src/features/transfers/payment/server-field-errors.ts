import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client.ts';

/** The wire names amounts in cents; the forms ask for dollars in a field named `amount`. */
function formFieldName(serverField: string): string {
  return serverField === 'amountCents' ? 'amount' : serverField;
}

/**
 * Puts the server's field messages (400 `validation_failed`) under the form's own fields, the first
 * focused. Answers whether it placed any; if not, the error belongs in the error dialog.
 */
export function placeServerFieldErrors<Values extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
): boolean {
  if (!(error instanceof ApiError) || error.code !== 'validation_failed') return false;
  let placed = false;
  for (const [serverField, message] of Object.entries(error.fields)) {
    const name = fieldNames.find((candidate) => candidate === formFieldName(serverField));
    if (name === undefined) continue;
    setError(name, { type: 'server', message }, { shouldFocus: !placed });
    placed = true;
  }
  return placed;
}
