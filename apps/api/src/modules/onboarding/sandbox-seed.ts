import type { Config } from '../../config.ts';
import type { Database } from '../../db/database.ts';
import { seedVerifiedFundingSource } from '../funding-sources/service.ts';
import { recordBankPayment, recordSettledExternalPayment } from '../payments/service.ts';
import type { FileStorage } from '../../platform/storage.ts';
import { createOnboardedCustomer } from './create-onboarded-customer.ts';
import { findCustomerByEmail } from '../customers/service.ts';

/** The sandbox's demo customer: printed at start and shown on the login page (docs/product.md section 4). */
export const demoSignIn = { email: 'demo@strongroom.test', password: 'strongroom-demo' } as const;
const demoOpeningCents = 500_000n;
const demoSavingsCents = 25_000n;
/** Bills the demo customer has paid, so the dashboard's spending chart shows real ledger data. */
const demoSpending = [
  {
    payee: { name: 'City Power & Light', bankName: 'First Example Bank', accountNumber: '40020081', routeNumber: '011000015' },
    amountCents: 8_420n,
    message: 'Electricity bill',
  },
  {
    payee: { name: 'Oak Street Lettings', bankName: 'Second Example Bank', accountNumber: '77120455', routeNumber: '011000015' },
    amountCents: 120_000n,
    message: 'November rent',
  },
];

/** The demo customer's account at another bank, verified, so a deposit works at once (docs/product.md section 6). */
export const demoFundingSource = { accountName: 'Dana Demo', accountNumber: '4400123456', routeNumber: '011000015', accountType: 'checking' } as const;

/**
 * Seeds a sandbox once: a demo customer with money in checking and a first move to savings, so the
 * dashboard and history have something real to show. Every amount goes through the ledger.
 */
export async function seedSandbox(dependencies: { db: Database; storage: FileStorage; secrets: Config['secrets'] }): Promise<'seeded' | 'present'> {
  if (await findCustomerByEmail(dependencies.db, demoSignIn.email)) return 'present';
  const demo = await createOnboardedCustomer(
    { ...dependencies, encryptionKey: dependencies.secrets.encryptionKey },
    {
      email: demoSignIn.email,
      password: demoSignIn.password,
      firstName: 'Dana',
      lastName: 'Demo',
      phone: '+12025550100',
      fundCents: demoOpeningCents,
    },
  );
  const checking = demo.accounts.find((account) => account.type === 'checking');
  const savings = demo.accounts.find((account) => account.type === 'savings');
  if (checking && savings) {
    await recordBankPayment(dependencies.db, {
      customerId: demo.userId,
      kind: 'own',
      fromAccount: { id: checking.id, ledgerAccountId: checking.ledgerAccountId },
      toAccount: { id: savings.id, ledgerAccountId: savings.ledgerAccountId, name: 'Standard Savings', number: savings.number },
      amountCents: demoSavingsCents,
      message: 'First savings',
    });
    for (const example of demoSpending) {
      await recordSettledExternalPayment(dependencies.db, {
        customerId: demo.userId,
        fromAccount: { id: checking.id, ledgerAccountId: checking.ledgerAccountId },
        ...example,
      });
    }
  }
  await seedVerifiedFundingSource(dependencies.db, dependencies.secrets.encryptionKey, dependencies.secrets.sessionSecret, {
    customerId: demo.userId,
    ...demoFundingSource,
  });
  return 'seeded';
}
