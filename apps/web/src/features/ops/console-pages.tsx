import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StaffPermission } from '@strongroom/contracts/staff.ts';
import { useHeldTransferCount } from './held-transfers/held-transfers-api.ts';
import { usePendingPaymentCount } from './payments/payments-api.ts';
import { useWaitingIdentityCount } from './identity/identity-api.ts';
import { useOpenMessageCount } from './messages/messages-api.ts';
import { usePendingCardCount } from './cards/cards-api.ts';
import { useSubmittedLoanCount } from './loans/loans-api.ts';

/**
 * The console's pages: each area of the back office adds one entry. The navigation lists the pages
 * a staff member's role may use (the server checks the permission on every request regardless).
 */
export interface ConsolePage {
  /** Under /ops, without a leading slash ('' is the overview). */
  path: string;
  label: string;
  /** Shown to roles that have it; absent for pages every staff member may open. */
  permission?: StaffPermission;
  /** Listed in the navigation (detail pages such as a customer's are not). */
  inNavigation: boolean;
  Page: LazyExoticComponent<ComponentType>;
  /** A queue's waiting count for the navigation (its list's `total`); undefined while loading. */
  useCount?: () => number | undefined;
}

export const consolePages: readonly ConsolePage[] = [
  { path: '', label: 'Overview', inNavigation: true, Page: lazy(() => import('./shell/overview-page.tsx')) },
  {
    path: 'identity',
    label: 'Identity reviews',
    permission: 'identity.decide',
    inNavigation: true,
    Page: lazy(() => import('./identity/identity-queue-page.tsx')),
    useCount: useWaitingIdentityCount,
  },
  {
    path: 'identity/:reviewId',
    label: 'Identity review',
    permission: 'identity.decide',
    inNavigation: false,
    Page: lazy(() => import('./identity/identity-review-page.tsx')),
  },
  {
    path: 'held-transfers',
    label: 'Held transfers',
    permission: 'transfers.review',
    inNavigation: true,
    Page: lazy(() => import('./held-transfers/held-transfers-page.tsx')),
    useCount: useHeldTransferCount,
  },
  {
    path: 'messages',
    label: 'Messages',
    permission: 'messages.reply',
    inNavigation: true,
    Page: lazy(() => import('./messages/messages-queue-page.tsx')),
    useCount: useOpenMessageCount,
  },
  {
    path: 'loans',
    label: 'Loan applications',
    permission: 'loans.decide',
    inNavigation: true,
    Page: lazy(() => import('./loans/loans-queue-page.tsx')),
    useCount: useSubmittedLoanCount,
  },
  {
    path: 'customers',
    label: 'Customers',
    permission: 'customers.read',
    inNavigation: true,
    Page: lazy(() => import('./customers/customer-search-page.tsx')),
  },
  {
    path: 'customers/:id',
    label: 'Customer',
    permission: 'customers.read',
    inNavigation: false,
    Page: lazy(() => import('./customers/customer-page.tsx')),
  },
  {
    path: 'payments',
    label: 'Outgoing payments',
    permission: 'payments.settle',
    inNavigation: true,
    Page: lazy(() => import('./payments/payments-page.tsx')),
    useCount: usePendingPaymentCount,
  },
  {
    path: 'cards',
    label: 'Card requests',
    permission: 'cards.decide',
    inNavigation: true,
    Page: lazy(() => import('./cards/card-queue-page.tsx')),
    useCount: usePendingCardCount,
  },
  {
    path: 'card-simulator',
    label: 'Card simulator',
    permission: 'payments.settle',
    inNavigation: true,
    Page: lazy(() => import('./cards/card-simulator-page.tsx')),
  },
  {
    path: 'disputes',
    label: 'Disputes',
    permission: 'disputes.manage',
    inNavigation: true,
    Page: lazy(() => import('./disputes/disputes-queue-page.tsx')),
  },
  {
    path: 'disputes/:id',
    label: 'Dispute',
    permission: 'disputes.manage',
    inNavigation: false,
    Page: lazy(() => import('./disputes/dispute-case-page.tsx')),
  },
  { path: 'products', label: 'Products', permission: 'products.edit', inNavigation: true, Page: lazy(() => import('./products/products-page.tsx')) },
  { path: 'billers', label: 'Billers', permission: 'billers.manage', inNavigation: true, Page: lazy(() => import('./billers/billers-page.tsx')) },
  {
    path: 'connected-apps',
    label: 'Connected apps',
    permission: 'connected_apps.manage',
    inNavigation: true,
    Page: lazy(() => import('./connected-apps/connected-apps-page.tsx')),
  },
  { path: 'books', label: 'Books', permission: 'books.read', inNavigation: true, Page: lazy(() => import('./books/books-page.tsx')) },
  {
    path: 'books/adjustments',
    label: 'Adjusting entries',
    // Reading the list needs books.read; the page offers the form and the decisions only with books.adjust.
    permission: 'books.read',
    inNavigation: true,
    Page: lazy(() => import('./books/adjustments-page.tsx')),
  },
  {
    path: 'reconciliation',
    label: 'Reconciliation',
    permission: 'reconciliation.manage',
    inNavigation: true,
    Page: lazy(() => import('./reconciliation/reconciliation-page.tsx')),
  },
  { path: 'staff', label: 'Staff', permission: 'staff.manage', inNavigation: true, Page: lazy(() => import('./staff/staff-members-page.tsx')) },
  { path: 'settings', label: 'Bank settings', inNavigation: true, Page: lazy(() => import('./settings/bank-settings-page.tsx')) },
  { path: 'audit', label: 'Audit log', permission: 'audit.read', inNavigation: true, Page: lazy(() => import('./audit/audit-log-page.tsx')) },
  { path: 'account', label: 'My account', inNavigation: true, Page: lazy(() => import('./staff/my-account-page.tsx')) },
];
