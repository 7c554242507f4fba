import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../../lib/api-client.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';

/**
 * Puts a contact change's refusal under its field: the server's field messages, and the refusals
 * that name a field without being `validation_failed` (email_taken, phone_taken, verification_expired).
 * Answers the message for the error dialog when no field takes it.
 */
export function placeChangeError<Values extends FieldValues>(
  error: unknown,
  fieldNames: readonly Path<Values>[],
  setError: UseFormSetError<Values>,
): string | null {
  if (showServerFieldErrors(error, fieldNames, setError)) return null;
  if (error instanceof ApiError) {
    const field = fieldNames.find((name) => error.fields[name] !== undefined);
    if (field !== undefined) {
      setError(field, { type: 'server', message: error.fields[field] }, { shouldFocus: true });
      return null;
    }
    return error.message;
  }
  return 'We could not read the answer. Please try again.';
}
