/**
 * Business constants from docs/product.md section 9 (the seed's section 9) and docs/product.md, named with their units last.
 * Money is integer cents.
 */
export const businessConstants = {
  emailVerificationCountdownSeconds: 350,
  verificationPollIntervalMs: 1_000,
  redirectAfterSignupMs: 3_000,
  passwordMinLength: 8,
  passwordMaxLength: 128,
  phoneCodeDigits: 4,
  stepUpCodeDigits: 6,
  imageMaxBytes: 5 * 1024 * 1024,
  imageTypes: ['image/png', 'image/jpeg'],
  billPayCategoryCount: 12,
  cardMinimumSavingsCents: 50_000n,
  cardApprovalDays: 3,
  referralBonusCents: 1_000n,
  refundWindowDays: 30,
  supportReplyHours: 24,
  achSettlementBusinessDays: { min: 3, max: 5 },
  wireSettlementHours: 24,
  otherBankType: 'otherbank',
  /** This bank's ABA routing number (a checksum-valid test number; operators of a real bank set theirs). */
  bankRoutingNumber: '123456780',
  printDelayMs: 500,
  chunkLoadTimeoutMs: 120_000,
  sessionIdleTimeoutMs: 15 * 60 * 1_000,
  sessionIdleWarningMs: 13 * 60 * 1_000,
  sessionAbsoluteTimeoutMs: 12 * 60 * 60 * 1_000,
  /** Staff sessions (docs/product.md section 6): the same idle timeout, a shorter absolute lifetime. */
  staffSessionAbsoluteTimeoutMs: 8 * 60 * 60 * 1_000,
} as const;

/** Greeting by hour of the day (seed section 4): 04-11 morning, 12-16 afternoon, 17-20 evening, 21-03 night. */
export function greetingForHour(hour: number): 'Good morning' | 'Good afternoon' | 'Good evening' | 'Good night' {
  if (!Number.isInteger(hour) || hour < 0 || hour > 23) throw new RangeError(`hour out of range: ${hour}`);
  if (hour >= 4 && hour <= 11) return 'Good morning';
  if (hour >= 12 && hour <= 16) return 'Good afternoon';
  if (hour >= 17 && hour <= 20) return 'Good evening';
  return 'Good night';
}
