import { Link } from 'react-router';
import { ArrowLeftRight, ShieldCheck } from 'lucide-react';
import { stepUpCodeLength, stepUpCodeValidMinutes } from '@strongroom/contracts/step-up.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import './otp-page.css';

/**
 * /otp. In the seed this screen took the one-time password before a payment. Here the code is
 * asked for inside the payment itself, for that payment only (docs/product.md D10), so this page only
 * says so and leads back to the transfer screen: nothing on it waits for input that goes nowhere.
 */
export default function OtpPage() {
  return (
    <div className="otp-page">
      <PageMeta title="One-time codes" description="How one-time codes confirm your payments." noIndex />
      <Card as="section" aria-labelledby="otp-title" className="otp-page__card">
        <ShieldCheck aria-hidden="true" size={32} className="otp-page__icon" />
        <h1 id="otp-title">One-time codes</h1>
        <p>
          Some payments need a {stepUpCodeLength}-digit code before we send them: payments to other banks and to cards, withdrawals, and your first payment to
          someone new. We send the code by SMS when you confirm the payment, and a window opens on the payment screen to enter it. There is nothing to enter
          here.
        </p>
        <p>
          A code works for {stepUpCodeValidMinutes} minutes and only for the payment you asked it for. Never give it to anyone: our staff will never ask you for
          it.
        </p>
        <Link to="/transfer" className={buttonClassName({ variant: 'primary' })}>
          <ArrowLeftRight aria-hidden="true" size={18} />
          Make a transfer
        </Link>
      </Card>
    </div>
  );
}
