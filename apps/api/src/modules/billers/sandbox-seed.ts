import { randomUUID } from 'node:crypto';
import type { BillCategory } from '@strongroom/contracts/billers.ts';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { hasAnyBiller, insertBiller } from './repository.ts';

const tenDigits = { accountNumberPattern: '^\\d{10}$', accountNumberExample: '1234567890' };
const lettersAndDigits = { accountNumberPattern: '^[A-Z]{2}\\d{6}$', accountNumberExample: 'AB123456' };

/** Two or three obviously fictional billers per Bill Pay tile, each paid through the rail simulator. */
export const sandboxBillers: Readonly<Record<BillCategory, readonly { name: string; accountNumberPattern: string; accountNumberExample: string }[]>> = {
  electricity: [
    { name: 'Sandbox City Power & Light', ...tenDigits },
    { name: 'Example Electric Cooperative', ...tenDigits },
  ],
  water: [
    { name: 'Example Water Works', ...tenDigits },
    { name: 'Sandbox Valley Water District', ...tenDigits },
  ],
  gas: [
    { name: 'Sandbox Gas & Heating', ...tenDigits },
    { name: 'Example Natural Gas Co.', ...tenDigits },
  ],
  food: [
    { name: 'Example Eats Delivery', ...lettersAndDigits },
    { name: 'Sandbox Pizza Express', ...lettersAndDigits },
  ],
  airfare: [
    { name: 'Example Airways', ...lettersAndDigits },
    { name: 'Sandbox Air Lines', ...lettersAndDigits },
  ],
  cable: [
    { name: 'Sandbox Cable Vision', ...tenDigits },
    { name: 'Example TV Networks', ...tenDigits },
  ],
  internet: [
    { name: 'Example Fiber Internet', ...tenDigits },
    { name: 'Sandbox Broadband', ...tenDigits },
    { name: 'Example Mobile & Net', ...tenDigits },
  ],
  hotel: [
    { name: 'Sandbox Grand Hotel', ...lettersAndDigits },
    { name: 'Example Inns & Suites', ...lettersAndDigits },
  ],
  train: [
    { name: 'Example Rail', ...lettersAndDigits },
    { name: 'Sandbox Commuter Trains', ...lettersAndDigits },
  ],
  bus: [
    { name: 'Sandbox Metro Transit', ...lettersAndDigits },
    { name: 'Example Coach Lines', ...lettersAndDigits },
  ],
  movie: [
    { name: 'Example Cinemas', ...lettersAndDigits },
    { name: 'Sandbox Picture House', ...lettersAndDigits },
  ],
  other: [
    { name: 'Sandbox County Taxes', ...tenDigits },
    { name: 'Example Insurance Co.', ...tenDigits },
  ],
};

/**
 * At a sandbox's start (never in production): when the directory is empty, the fictional billers
 * above, so every tile has someone to pay. A directory with any biller is left as it is, so a
 * second start adds nothing and staff's changes stay. Answers how many billers it added.
 */
export async function seedSandboxBillers(db: Database, config: Pick<Config, 'mode'>): Promise<number> {
  if (config.mode !== 'sandbox') return 0;
  return db.transaction(async (tx) => {
    await tx.query('LOCK TABLE billers IN SHARE ROW EXCLUSIVE MODE');
    if (await hasAnyBiller(tx)) return 0;
    let added = 0;
    for (const [category, billers] of Object.entries(sandboxBillers) as [BillCategory, (typeof sandboxBillers)[BillCategory]][]) {
      for (const biller of billers) {
        await insertBiller(tx, randomUUID(), { ...biller, category, paymentMethod: 'simulator', routingNumber: null, accountNumber: null, active: true });
        added += 1;
      }
    }
    return added;
  });
}
