import { lazy } from 'react';
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
const FraudWarningPage = lazy(() => import('../features/fraud-warning/fraud-warning-page.tsx'));
const PrivacyPage = lazy(() => import('../features/profile/privacy-page.tsx'));
const ReceiptVerifyPage = lazy(() => import('../features/receipts/receipt-verify-page.tsx'));
// The back office (D16): its own layout and sign-in, in chunks of its own.
const OpsConsole = lazy(() => import('../features/ops/ops-console.tsx'));

type CustomerRoutePath = (typeof customerRoutePaths)[number];

/**
 * /profilephoto is a customer path, and an onboarding screen: it lives with the onboarding screens.
 * /privacy is open to visitors too (sign-up's terms link to it): it has a route of its own below.
 */
const separatelyRoutedPaths: ReadonlySet<CustomerRoutePath> = new Set(['/profilephoto', '/privacy']);

// Which screen each customer path shows is decided in a chunk of its own (lazy-routes/customer-screen.tsx),
// with the screens' own chunks: their loaders stay out of the script every public page loads.
const CustomerScreen = lazy(() => import('./lazy-routes/customer-screen.tsx'));

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
            <Route key={path} path={path} element={<CustomerScreen path={path} />} />
          ))}
      </Route>
    </Routes>
  );
}
