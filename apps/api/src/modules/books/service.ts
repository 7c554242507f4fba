/**
 * What other modules use of the books (strongroom/module-boundaries: a module reaches another only
 * through its service.ts): end of day closes each business day it runs, the app and the ops CLI
 * write the bank's time zone, and the reconciliation settles an exception with an adjusting entry.
 */
export {
  BooksCloseRefused,
  booksState,
  closeBooksThrough,
  closedThrough,
  isBusinessDayClosedError,
  syncBooksTimeZone,
  type BooksState,
  type CloseOptions,
} from './close.ts';
export {
  decideAdjustment,
  ExceptionNotOpenError,
  presentAdjustment,
  requestAdjustment,
  type AdjustmentOutcome,
  type DecideAdjustmentOutcome,
} from './adjustments.ts';
