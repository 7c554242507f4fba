import { BedDouble, Bus, Clapperboard, Droplet, Flame, Plane, ReceiptText, TrainFront, Tv, UtensilsCrossed, Wifi, Zap, type LucideIcon } from 'lucide-react';
import type { BillCategory } from '@strongroom/contracts/billers.ts';
import { businessConstants } from '@strongroom/contracts/constants.ts';

export interface BillCategoryTile {
  /** The category's slug in the address and in `GET /billers?category=` (docs/product.md section 7). */
  slug: BillCategory;
  /** The seed's label on the tile. */
  name: string;
  Icon: LucideIcon;
}

/** The seed's twelve bill-pay tiles, in its order, with their labels. */
export const billCategoryTiles: readonly BillCategoryTile[] = [
  { slug: 'electricity', name: 'Electricity', Icon: Zap },
  { slug: 'water', name: 'Water Bill', Icon: Droplet },
  { slug: 'gas', name: 'Gas Bill', Icon: Flame },
  { slug: 'food', name: 'Food Order', Icon: UtensilsCrossed },
  { slug: 'airfare', name: 'Airfare', Icon: Plane },
  { slug: 'cable', name: 'Cable', Icon: Tv },
  { slug: 'internet', name: 'Internet', Icon: Wifi },
  { slug: 'hotel', name: 'Hotel Booking', Icon: BedDouble },
  { slug: 'train', name: 'Train tickets', Icon: TrainFront },
  { slug: 'bus', name: 'Bus Ticket', Icon: Bus },
  { slug: 'movie', name: 'Movie Ticket', Icon: Clapperboard },
  { slug: 'other', name: 'Other Bills', Icon: ReceiptText },
];

if (billCategoryTiles.length !== businessConstants.billPayCategoryCount) {
  throw new Error(`bill pay shows ${billCategoryTiles.length} categories, the product has ${businessConstants.billPayCategoryCount}`);
}

/** The tile of an address's category, or undefined for a slug that is not one of the twelve. */
export function billCategoryOf(slug: string | undefined): BillCategoryTile | undefined {
  return billCategoryTiles.find((tile) => tile.slug === slug);
}
