import { Link } from 'react-router';
import { BookOpenCheck, HandCoins, ShieldCheck, Users } from 'lucide-react';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { FeatureCard } from '../components/feature-card.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { PageHero } from '../components/page-hero.tsx';
import '../public-pages.css';

const values = [
  {
    title: 'Every cent accounted for',
    text: 'Each movement of money is written twice, once where it leaves and once where it arrives, so the books always balance.',
    Icon: BookOpenCheck,
  },
  {
    title: 'Your money, no conditions',
    text: 'We never ask for a code or a fee to release your own money. Payments we hold for review are checked by people, at no cost to you.',
    Icon: HandCoins,
  },
  {
    title: 'Security you can see',
    text: 'Sensitive actions ask for a one-time code, sessions end when you leave, and card numbers are encrypted at rest.',
    Icon: ShieldCheck,
  },
  {
    title: 'People who answer',
    text: 'Messages reach a real team that replies within a day, and every decision our staff takes is recorded.',
    Icon: Users,
  },
] as const;

export function AboutPage() {
  const { name, mode } = useBankIdentity();
  return (
    <>
      <PageMeta
        title="About us"
        description={`The story of ${name}: an online bank for everybody, built on an open-source double-entry ledger, with clear fees and people who answer.`}
      />
      <PageHero eyebrow="About us" title={`The story of ${name}`}>
        <p>A bank for everybody, with nothing hidden in the small print.</p>
      </PageHero>

      <section className="section" aria-labelledby="history-title">
        <div className="container prose">
          <h2 id="history-title">Where we come from</h2>
          <p>
            {name} began with a simple observation: most people do not need a branch on every corner, they need a bank that is open when they are, explains its
            fees in plain words and keeps their money safe. So we set out to build an online bank for everybody, whether they are opening their first account or
            running a small business.
          </p>
          <p>
            From the first day we chose to build on <strong>Strongroom</strong>, open-source banking software. Its core is a double-entry ledger: every deposit,
            transfer and card payment is recorded as money leaving one account and arriving in another, in a single step that either happens completely or not
            at all. Balances are never typed in; they are always worked out from that record, which is why they can always be explained.
          </p>
          <p>
            Over time we added savings and money-market accounts, debit and credit cards, loans and payments to other banks. We also learned what protects
            customers best: checking unusual payments by hand before they leave, asking for a one-time code when something sensitive happens, and being clear
            that we will never ask anyone to pay a fee to receive their own money.
          </p>
          <h2>How we work today</h2>
          <p>
            Our staff review identity checks, card requests, loans and held payments in a back office where every action is logged. Customers reach the same
            team through the contact page and hear back within a day.
          </p>
          {mode === 'sandbox' ? (
            <p>
              <strong>This site is a sandbox.</strong> It shows how the bank works with demonstration money only: no real money moves, and messages it sends
              land in a sandbox inbox instead of a real mailbox.
            </p>
          ) : null}
        </div>
      </section>

      <section className="section section--tinted" aria-labelledby="values-title">
        <div className="container">
          <div className="section__header">
            <h2 id="values-title">What we stand for</h2>
          </div>
          <ul className="card-grid">
            {values.map(({ title, text, Icon }) => (
              <FeatureCard key={title} title={title} text={text} Icon={Icon} />
            ))}
          </ul>
          <p className="page-hero__actions">
            <Link to="/signup" className={buttonClassName({ variant: 'primary' })}>
              Create Account
            </Link>
            <Link to="/contact" className={buttonClassName({ variant: 'secondary' })}>
              Talk to us
            </Link>
          </p>
        </div>
      </section>
    </>
  );
}
