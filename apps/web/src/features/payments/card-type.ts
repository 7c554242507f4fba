import cardValidator from 'card-validator';

/**
 * The card's network as its first digits tell it ('Visa', 'Mastercard', 'American Express'), by
 * the same library the contract's cardNumberField checks lengths and the Luhn digit with.
 */
export function cardTypeOf(typed: string): string | undefined {
  const digits = typed.replace(/[\s-]/g, '');
  if (!/^\d+$/.test(digits)) return undefined;
  return cardValidator.number(digits).card?.niceType;
}

/** A card number as it is shown back: the network and the last four digits. */
export function maskedCardNumber(digits: string): string {
  const type = cardTypeOf(digits);
  return `${type ? `${type} ` : ''}•••• ${digits.slice(-4)}`;
}
