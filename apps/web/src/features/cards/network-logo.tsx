import type { CardNetwork } from '@strongroom/contracts/cards.ts';
import { cardNetworkLabels } from '@strongroom/contracts/cards.ts';

/**
 * The network's mark, drawn here (no image from another origin, and no trademark file shipped):
 * Mastercard's two overlapping circles, Visa's name in its italic capitals.
 */
export function NetworkLogo({ network, height = 28 }: { network: CardNetwork; height?: number }) {
  const label = cardNetworkLabels[network];
  if (network === 'mastercard') {
    return (
      <svg role="img" aria-label={label} viewBox="0 0 48 30" height={height} width={(height * 48) / 30} className="network-logo">
        <circle cx="17" cy="15" r="13" fill="#eb001b" />
        <circle cx="31" cy="15" r="13" fill="#f79e1b" />
        <path d="M24 4.1a13 13 0 0 1 0 21.8a13 13 0 0 1 0-21.8z" fill="#ff5f00" />
      </svg>
    );
  }
  return (
    <svg role="img" aria-label={label} viewBox="0 0 64 24" height={height} width={(height * 64) / 24} className="network-logo">
      <text
        x="32"
        y="20"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="22"
        fontStyle="italic"
        fontWeight="900"
        fill="currentColor"
        letterSpacing="1"
      >
        VISA
      </text>
    </svg>
  );
}
