import type { ErrorCode } from '@strongroom/contracts/http.ts';
import { AppError } from '../../platform/errors.ts';

/**
 * An expected refusal of the cards module (nothing owed, not enough money, a card not active, ...):
 * a value the service returns, which the route turns into the API's error answer. A defect (a broken
 * invariant) is thrown instead, and so is a card or account that is not the customer's (404, as
 * payments do for a missing account).
 */
export interface CardRefusal {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
}

export interface Refused {
  outcome: 'refused';
  refusal: CardRefusal;
}

export function refused(code: ErrorCode, message: string, fields?: Record<string, string>): Refused {
  return { outcome: 'refused', refusal: { code, message, ...(fields ? { fields } : {}) } };
}

/** A refusal met inside a transaction: thrown so the transaction rolls back, and returned as a value by `refusalOutside`. */
class RefusalInTransaction extends Error {
  override readonly name = 'RefusalInTransaction';
  constructor(readonly refused: Refused) {
    super(refused.refusal.message);
  }
}

/** Ends the transaction it is called in, writing nothing; the caller's `refusalOutside` answers the refusal. */
export function refuseInTransaction(code: ErrorCode, message: string, fields?: Record<string, string>): never {
  throw new RefusalInTransaction(refused(code, message, fields));
}

/** Runs `work` (a transaction), answering a refusal it met as a value once the transaction is rolled back. */
export async function refusalOutside<T>(work: () => Promise<T>): Promise<T | Refused> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof RefusalInTransaction) return error.refused;
    throw error;
  }
}

/** For a route: the refusal as the API's error answer (the same status, code, message and fields as before). */
function refusalError(refusal: CardRefusal): AppError {
  return new AppError(refusal.code, refusal.message, refusal.fields ? { fields: refusal.fields } : {});
}

export function isRefused(result: unknown): result is Refused {
  return typeof result === 'object' && result !== null && 'outcome' in result && result.outcome === 'refused';
}

/** For a route: what the service answered, or its refusal thrown as the API's error answer. */
export function unlessRefused<T>(result: T | Refused): T {
  if (isRefused(result)) throw refusalError(result.refusal);
  return result;
}
