/**
 * The money module: every ledger transfer the bank writes, with its sides from kinds.ts
 * (docs/decisions/069-every-movement-through-the-money-module.md).
 */
export {
  bookedMovementKinds,
  ledgerSideOf,
  linkedLegKinds,
  paymentKinds,
  type BookedMovementKind,
  type LedgerSide,
  type LinkedLegKind,
  type PaymentKindLedger,
  type PaymentLedgerAccounts,
  type Rail,
} from './kinds.ts';
export {
  bookMovements,
  postPayment,
  repayOwed,
  repayOwedIn,
  resolveHeld,
  type BookedMovement,
  type BookingOutcome,
  type BookingRefusal,
  type HeldResolution,
  type MovementLeg,
  type PaymentPosting,
  type PaymentTransfer,
  type ResolveOutcome,
  type ResolveRefusal,
  type TransfersWriter,
} from './movements.ts';
