import { lazy, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { customerRoutePaths, fraudWarningRoutePaths } from '@strongroom/contracts/web-routes.ts';
import { useBankIdentity } from '../lib/bank-identity.ts';
import { AboutPage } from '../features/public/pages/about-page.tsx';
import { CardsPage } from '../features/public/pages/cards-page.tsx';
import { ContactPage } from '../features/public/pages/contact-page.tsx';
import { CurrentPage } from '../features/public/pages/current-page.tsx';
import { FaqPage } from '../features/public/pages/faq-page.tsx';
import { HomePage } from '../features/public/pages/home-page.tsx';
import { SavingsPage } from '../features/public/pages/savings-page.tsx';
import { PublicLayout } from './layouts/public-layout.tsx';
import { NotFoundPage } from './not-found-page.tsx';

// Everything behind sign-in, sign-up and recovery, and the sandbox tools, load on demand: a visitor
// of the public site never downloads them (nor TanStack Query, react-hook-form or zod, which only
// they use).
const LoginRoute = lazy(() => import('./lazy-routes/login-route.tsx'));
const DevMailRoute = lazy(() => import('./lazy-routes/dev-mail-route.tsx'));
const AccountAccessArea = lazy(() => import('./lazy-routes/account-access-area.tsx'));
const SignupPage = lazy(() => import('../features/auth/signup/signup-page.tsx'));
const VerifyEmailPage = lazy(() => import('../features/auth/signup/verify-email-page.tsx'));
const EmailVerificationPage = lazy(() => import('../features/auth/signup/email-verification-page.tsx'));
const ForgotPasswordPage = lazy(() => import('../features/auth/recovery/forgot-password-page.tsx'));
const ResetPasswordPage = lazy(() => import('../features/auth/recovery/reset-password-page.tsx'));
const OnboardingArea = lazy(() => import('./lazy-routes/onboarding-area.tsx'));
const PhoneSignupPage = lazy(() => import('../features/auth/onboarding/phone-signup-page.tsx'));
const PhoneVerificationPage = lazy(() => import('../features/auth/onboarding/phone-verification-page.tsx'));
const RegistrationPage = lazy(() => import('../features/auth/onboarding/registration-page.tsx'));
const ProfilePhotoPage = lazy(() => import('../features/auth/onboarding/profile-photo-page.tsx'));
const SuccessPage = lazy(() => import('../features/auth/onboarding/success-page.tsx'));
const CustomerArea = lazy(() => import('./lazy-routes/customer-area.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));
const NotificationsPage = lazy(() => import('../features/notifications/notifications-page.tsx'));
const BeneficiariesPage = lazy(() => import('../features/beneficiaries/beneficiaries-page.tsx'));
const AddBeneficiaryPage = lazy(() => import('../features/beneficiaries/add-beneficiary-page.tsx'));
const BillPayPage = lazy(() => import('../features/billpay/billpay-page.tsx'));
const FraudWarningPage = lazy(() => import('../features/fraud-warning/fraud-warning-page.tsx'));
const TransferPage = lazy(() => import('../features/payments/transfer-page.tsx'));
const CardTransferPage = lazy(() => import('../features/payments/card-transfer-page.tsx'));
const DepositPage = lazy(() => import('../features/payments/deposits/deposit-page.tsx'));
const FundingSourcesPage = lazy(() => import('../features/payments/funding-sources/funding-sources-page.tsx'));
const WithdrawPage = lazy(() => import('../features/payments/withdrawals/withdraw-page.tsx'));
const OtpPage = lazy(() => import('../features/payments/step-up/otp-page.tsx'));
const HistoryPage = lazy(() => import('../features/history/history-page.tsx'));
const CardPage = lazy(() => import('../features/cards/card-page.tsx'));
const CardFormPage = lazy(() => import('../features/cards/card-form-page.tsx'));
const CardDetailsPage = lazy(() => import('../features/cards/card-details-page.tsx'));
const LoansPage = lazy(() => import('../features/loans/loans-page.tsx'));
const LoanPage = lazy(() => import('../features/loans/loan-page.tsx'));
const ProfilePage = lazy(() => import('../features/profile/profile-page.tsx'));
const SettingsPage = lazy(() => import('../features/profile/settings-page.tsx'));
const PrivacyPage = lazy(() => import('../features/profile/privacy-page.tsx'));
const InvitePage = lazy(() => import('../features/referrals/invite-page.tsx'));
const HelpPage = lazy(() => import('../features/help/help-page.tsx'));
const MessagesPage = lazy(() => import('../features/messages/messages-page.tsx'));
const ThreadPage = lazy(() => import('../features/messages/thread-page.tsx'));
const SecurityActivityPage = lazy(() => import('../features/security-activity/security-activity-page.tsx'));
const SecurityPage = lazy(() => import('../features/settings/security/security-page.tsx'));
const ContactDetailsPage = lazy(() => import('../features/settings/contact/contact-details-page.tsx'));
const EmailChangePage = lazy(() => import('../features/settings/contact/email-change-page.tsx'));
const ReceiptVerifyPage = lazy(() => import('../features/receipts/receipt-verify-page.tsx'));
const OpenAccountPage = lazy(() => import('../features/accounts/open-account-page.tsx'));
// The back office (D16): its own layout and sign-in, in chunks of its own.
const OpsConsole = lazy(() => import('../features/ops/ops-console.tsx'));

type CustomerRoutePath = (typeof customerRoutePaths)[number];

/**
 * /profilephoto is a customer path, and an onboarding screen: it lives with the onboarding screens.
 * /privacy is open to visitors too (sign-up's terms link to it): it has a route of its own below.
 */
const separatelyRoutedPaths: ReadonlySet<CustomerRoutePath> = new Set(['/profilephoto', '/privacy']);

/** Customer screens built so far; the other customer paths answer "page not found" until theirs exists. */
const customerScreens: Partial<Record<CustomerRoutePath, ReactNode>> = {
  '/dashboard': <DashboardPage />,
  '/home': <DashboardPage />,
  '/notifications': <NotificationsPage />,
  '/beneficiaries': <BeneficiariesPage />,
  '/add-beneficiaries': <AddBeneficiaryPage />,
  '/billpay': <BillPayPage />,
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
};

export function AppRoutes() {
  const { mode } = useBankIdentity();
  return (
    <Routes>
      <Route path="ops/*" element={<OpsConsole />} />
      <Route element={<PublicLayout />}>
        <Route index element={<HomePage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="savings" element={<SavingsPage />} />
        <Route path="current" element={<CurrentPage />} />
        <Route path="cards" element={<CardsPage />} />
        <Route path="faq" element={<FaqPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="login" element={<LoginRoute />} />
        <Route element={<AccountAccessArea />}>
          <Route path="signup" element={<SignupPage />} />
          <Route path="verify/:email" element={<VerifyEmailPage />} />
          <Route path="verification/:token" element={<EmailVerificationPage />} />
          <Route path="forgetpassword" element={<ForgotPasswordPage />} />
          <Route path="resetpassword/:token" element={<ResetPasswordPage />} />
          {/* Where a receipt's QR code leads: anyone holding the receipt may check it. */}
          <Route path="receipts/verify/:reference" element={<ReceiptVerifyPage />} />
          {/* The seed's code screens warn against advance-fee fraud instead (docs/product.md D1), signed in or not. */}
          {fraudWarningRoutePaths.map((path) => (
            <Route key={path} path={path.slice(1)} element={<FraudWarningPage />} />
          ))}
        </Route>
        {mode === 'sandbox' ? <Route path="dev/mail" element={<DevMailRoute />} /> : null}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route element={<OnboardingArea />}>
        <Route path="phonesignup" element={<PhoneSignupPage />} />
        <Route path="phoneverification" element={<PhoneVerificationPage />} />
        <Route path="registeration" element={<RegistrationPage />} />
        <Route path="profilephoto" element={<ProfilePhotoPage />} />
        <Route path="success" element={<SuccessPage />} />
      </Route>
      {/* In the bank's frame for a signed-in customer, in the public one for anyone else. */}
      <Route element={<CustomerArea openToVisitors />}>
        <Route path="privacy" element={<PrivacyPage />} />
      </Route>
      <Route element={<CustomerArea />}>
        {customerRoutePaths
          .filter((path) => !separatelyRoutedPaths.has(path))
          .map((path) => (
            <Route key={path} path={path} element={customerScreens[path] ?? <NotFoundPage />} />
          ))}
      </Route>
    </Routes>
  );
}
