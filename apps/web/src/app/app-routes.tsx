import { lazy, type ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { customerRoutePaths } from '@strongroom/contracts/web-routes.ts';
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

// Everything behind sign-in, and the sandbox tools, load on demand: a visitor of the public site
// never downloads them (nor TanStack Query, react-hook-form or zod, which only they use).
const LoginRoute = lazy(() => import('./lazy-routes/login-route.tsx'));
const DevMailRoute = lazy(() => import('./lazy-routes/dev-mail-route.tsx'));
const CustomerArea = lazy(() => import('./lazy-routes/customer-area.tsx'));
const DashboardPage = lazy(() => import('../features/dashboard/dashboard-page.tsx'));

/** Customer screens built so far; the other customer paths answer "page not found" until theirs exists. */
const customerScreens: Partial<Record<(typeof customerRoutePaths)[number], ReactNode>> = {
  '/dashboard': <DashboardPage />,
  '/home': <DashboardPage />,
  '/new-card': <DashboardPage />,
};

export function AppRoutes() {
  const { mode } = useBankIdentity();
  return (
    <Routes>
      <Route element={<PublicLayout />}>
        <Route index element={<HomePage />} />
        <Route path="about" element={<AboutPage />} />
        <Route path="savings" element={<SavingsPage />} />
        <Route path="current" element={<CurrentPage />} />
        <Route path="cards" element={<CardsPage />} />
        <Route path="faq" element={<FaqPage />} />
        <Route path="contact" element={<ContactPage />} />
        <Route path="login" element={<LoginRoute />} />
        {mode === 'sandbox' ? <Route path="dev/mail" element={<DevMailRoute />} /> : null}
        <Route path="*" element={<NotFoundPage />} />
      </Route>
      <Route element={<CustomerArea />}>
        {customerRoutePaths.map((path) => (
          <Route key={path} path={path} element={customerScreens[path] ?? <NotFoundPage />} />
        ))}
      </Route>
    </Routes>
  );
}
