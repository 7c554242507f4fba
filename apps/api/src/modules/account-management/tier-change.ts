import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import { recordAudit } from '../../platform/audit.ts';
import { AppError } from '../../platform/errors.ts';
import { auditEntryOf } from '../../platform/request-actor.ts';
import { lockCustomer, setAccountProduct } from './manage-repository.ts';
import {
  openAccountOf,
  presentAccountById,
  productOnBankDate,
  publishAccountsChanged,
  reasonDetails,
  type AccountManagementDependencies,
  type AccountRequester,
} from './managed-account.ts';

export const tierChangeMessages = {
  checkingOnly: 'Only a checking account can change its type: open a savings account of the kind you want instead.',
  checkingTierOnly: 'A checking account can only become another checking account.',
  sameProduct: 'The account is already of this type.',
} as const;

/**
 * `PUT /accounts/{id}/product` (and staff's `PUT /staff/accounts/{id}/product`): a checking account
 * becomes another checking tier and takes its name, with no money moved. From then on the new
 * tier's terms apply: the end-of-day job charges the monthly fee of the product the account has at
 * the cycle's end. Savings accounts, and savings products, are refused (422 product_not_allowed).
 */
export async function changeAccountProduct(
  dependencies: AccountManagementDependencies,
  requester: AccountRequester,
  accountId: string,
  productId: string,
): Promise<ManagedAccount> {
  const { db } = dependencies;
  const { customerId } = requester;
  const account = await openAccountOf(db, customerId, accountId);
  const product = await productOnBankDate(dependencies, productId);
  if (account.type !== 'checking') throw new AppError('product_not_allowed', tierChangeMessages.checkingOnly);
  if (product.kind !== 'checking')
    throw new AppError('product_not_allowed', tierChangeMessages.checkingTierOnly, { fields: { productId: tierChangeMessages.checkingTierOnly } });
  if (product.id === account.product_id)
    throw new AppError('product_not_allowed', tierChangeMessages.sameProduct, { fields: { productId: tierChangeMessages.sameProduct } });
  const changed = await db.transaction(async (tx) => {
    await lockCustomer(tx, customerId);
    const current = await openAccountOf(tx, customerId, accountId, { lock: true });
    await setAccountProduct(tx, current.id, product);
    await recordAudit(
      tx,
      auditEntryOf(requester.actor, {
        action: 'account.product_changed',
        subject: current.id,
        outcome: 'success',
        details: { fromProductId: current.product_id, toProductId: product.id, ...reasonDetails(requester) },
      }),
    );
    return presentAccountById(tx, customerId, current.id);
  });
  publishAccountsChanged(dependencies, customerId);
  return changed;
}
