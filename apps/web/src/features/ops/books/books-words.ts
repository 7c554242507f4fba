import type { Adjustment } from '@strongroom/contracts/books.ts';
import { isApiError } from '../../../lib/api-client.ts';

/** An adjusting entry's status as staff read it, by word (never by colour alone). */
export const adjustmentStatusWords: Readonly<Record<Adjustment['status'], string>> = {
  awaiting_approval: 'Waiting for a second approval',
  posted: 'Posted',
  rejected: 'Rejected',
};

/** Why the server refused a request of the books, in words staff can act on. */
export function booksRefusalInWords(error: Error): string {
  if (!isApiError(error)) return error.message;
  switch (error.code) {
    case 'four_eyes_required':
      return 'A second finance member must decide this: not the one who asked for the entry, nor anyone linked to them by grants of back-office access.';
    case 'forbidden':
      return 'Your role cannot post or decide adjusting entries.';
    default: {
      // The server's message may already quote its field's (the line at fault of a statement).
      const fields = Object.values(error.fields).filter((text) => !error.message.includes(text));
      return fields.length > 0 ? `${error.message}: ${fields.join('; ')}` : error.message;
    }
  }
}
