import { describe, expect, it } from 'vitest';
import { formatPrice } from './money.ts';

// formatMoney itself is tested with the contracts (packages/contracts/src/money.test.ts).
describe('formatPrice', () => {
  it('leaves out .00 for whole dollars and keeps cents otherwise', () => {
    expect(formatPrice(250_000)).toBe('$2,500');
    expect(formatPrice(695)).toBe('$6.95');
  });
});
