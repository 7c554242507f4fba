/**
 * Lines are read and written this many at a time, so memory does not grow with the statement. In
 * a file of its own so that the monthly statements (monthly-service.ts), which service.ts hands to
 * other modules, read it without importing service.ts back.
 */
export const statementBatchSize = 1_000;
