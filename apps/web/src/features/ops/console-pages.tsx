import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { StaffPermission } from '@strongroom/contracts/staff.ts';

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
  { path: 'staff', label: 'Staff', permission: 'staff.manage', inNavigation: true, Page: lazy(() => import('./staff/staff-members-page.tsx')) },
  { path: 'settings', label: 'Bank settings', inNavigation: true, Page: lazy(() => import('./settings/bank-settings-page.tsx')) },
  { path: 'audit', label: 'Audit log', permission: 'audit.read', inNavigation: true, Page: lazy(() => import('./audit/audit-log-page.tsx')) },
  { path: 'account', label: 'My account', inNavigation: true, Page: lazy(() => import('./staff/my-account-page.tsx')) },
];
