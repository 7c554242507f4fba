import { lazy, type ReactNode } from 'react';
import type { customerRoutePaths } from '@strongroom/contracts/web-routes.ts';
import { NotFoundPage } from '../not-found-page.tsx';

const DashboardPage = lazy(() => import('../../features/dashboard/dashboard-page.tsx'));
const NotificationsPage = lazy(() => import('../../features/notifications/notifications-page.tsx'));
const BeneficiariesPage = lazy(() => import('../../features/beneficiaries/beneficiaries-page.tsx'));
const AddBeneficiaryPage = lazy(() => import('../../features/beneficiaries/add-beneficiary-page.tsx'));
const BillPayPage = lazy(() => import('../../features/billpay/billpay-page.tsx'));
const BillCategoryPage = lazy(() => import('../../features/billpay/bill-category-page.tsx'));
const TransferPage = lazy(() => import('../../features/payments/transfer-page.tsx'));
const CardTransferPage = lazy(() => import('../../features/payments/card-transfer-page.tsx'));
const DepositPage = lazy(() => import('../../features/payments/deposits/deposit-page.tsx'));
const FundingSourcesPage = lazy(() => import('../../features/payments/funding-sources/funding-sources-page.tsx'));
const WithdrawPage = lazy(() => import('../../features/payments/withdrawals/withdraw-page.tsx'));
const OtpPage = lazy(() => import('../../features/payments/step-up/otp-page.tsx'));
const HistoryPage = lazy(() => import('../../features/history/history-page.tsx'));
const CardPage = lazy(() => import('../../features/cards/card-page.tsx'));
const CardFormPage = lazy(() => import('../../features/cards/card-form-page.tsx'));
const CardDetailsPage = lazy(() => import('../../features/cards/card-details-page.tsx'));
const LoansPage = lazy(() => import('../../features/loans/loans-page.tsx'));
const LoanPage = lazy(() => import('../../features/loans/loan-page.tsx'));
const ProfilePage = lazy(() => import('../../features/profile/profile-page.tsx'));
const SettingsPage = lazy(() => import('../../features/profile/settings-page.tsx'));
const InvitePage = lazy(() => import('../../features/referrals/invite-page.tsx'));
const HelpPage = lazy(() => import('../../features/help/help-page.tsx'));
const MessagesPage = lazy(() => import('../../features/messages/messages-page.tsx'));
const ThreadPage = lazy(() => import('../../features/messages/thread-page.tsx'));
const SecurityActivityPage = lazy(() => import('../../features/security-activity/security-activity-page.tsx'));
const SecurityPage = lazy(() => import('../../features/settings/security/security-page.tsx'));
const ContactDetailsPage = lazy(() => import('../../features/settings/contact/contact-details-page.tsx'));
const EmailChangePage = lazy(() => import('../../features/settings/contact/email-change-page.tsx'));
const ConnectedAppsPage = lazy(() => import('../../features/settings/connected-apps/connected-apps-page.tsx'));
const OpenAccountPage = lazy(() => import('../../features/accounts/open-account-page.tsx'));
const ScheduledPaymentsPage = lazy(() => import('../../features/scheduled-payments/scheduled-payments-page.tsx'));
const SchedulePaymentPage = lazy(() => import('../../features/scheduled-payments/schedule-payment-page.tsx'));
const ScheduleDetailPage = lazy(() => import('../../features/scheduled-payments/schedule-detail-page.tsx'));
const DisputesPage = lazy(() => import('../../features/disputes/disputes-page.tsx'));
const ReportProblemPage = lazy(() => import('../../features/disputes/report-problem-page.tsx'));
const DisputeDetailPage = lazy(() => import('../../features/disputes/dispute-detail-page.tsx'));
const ConnectPage = lazy(() => import('../../features/connect/connect-page.tsx'));

type CustomerRoutePath = (typeof customerRoutePaths)[number];

/** Customer screens built so far; the other customer paths answer "page not found" until theirs exists. */
const customerScreens: Partial<Record<CustomerRoutePath, ReactNode>> = {
  '/dashboard': <DashboardPage />,
  '/home': <DashboardPage />,
  '/notifications': <NotificationsPage />,
  '/beneficiaries': <BeneficiariesPage />,
  '/add-beneficiaries': <AddBeneficiaryPage />,
  '/billpay': <BillPayPage />,
  '/billpay/:category': <BillCategoryPage />,
  '/transfer': <TransferPage />,
  '/send-account': <TransferPage />,
  '/send-card': <CardTransferPage />,
  '/deposit': <DepositPage />,
  '/deposit/sources': <FundingSourcesPage />,
  '/withdraw': <WithdrawPage />,
  '/otp': <OtpPage />,
  '/transaction-history': <HistoryPage />,
  '/card': <CardPage />,
  // The seed sends /success's button to /new-card: the card screens, not a second dashboard.
  '/new-card': <CardPage />,
  '/card-form': <CardFormPage />,
  '/new-card-form': <CardFormPage />,
  '/settings/security': <SecurityPage />,
  '/settings/contact': <ContactDetailsPage />,
  '/settings/connected-apps': <ConnectedAppsPage />,
  '/email-change/:token': <EmailChangePage />,
  '/card-details/:id': <CardDetailsPage />,
  '/loan': <LoansPage />,
  '/loan/:id': <LoanPage />,
  '/profile': <ProfilePage />,
  '/settings': <SettingsPage />,
  '/invite': <InvitePage />,
  '/help': <HelpPage />,
  '/messages': <MessagesPage />,
  '/messages/:id': <ThreadPage />,
  '/settings/activity': <SecurityActivityPage />,
  '/accounts/open': <OpenAccountPage />,
  '/payments/scheduled': <ScheduledPaymentsPage />,
  '/payments/scheduled/new': <SchedulePaymentPage />,
  '/payments/scheduled/:id': <ScheduleDetailPage />,
  '/disputes': <DisputesPage />,
  '/disputes/new': <ReportProblemPage />,
  '/disputes/:id': <DisputeDetailPage />,
  // Issue 38: an app asks to read the customer's data; a signed-out visitor signs in on this page and stays on it.
  '/connect/:uid': <ConnectPage />,
};

/**
 * The screen of a customer path, inside the customer area (app-routes.tsx): loaded after sign-in
 * with the area, so the public pages' entry script carries none of these loaders. A path with no
 * screen yet answers "page not found".
 */
export default function CustomerScreen({ path }: { path: CustomerRoutePath }) {
  return customerScreens[path] ?? <NotFoundPage />;
}
