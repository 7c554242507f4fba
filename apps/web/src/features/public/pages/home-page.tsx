import { Link } from 'react-router';
import { ArrowRight, CreditCard, PiggyBank, ShieldCheck, TrendingUp, Wallet } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { buttonClassName } from '../../../components/ui/button.tsx';
import { useBankIdentity } from '../../../lib/bank-identity.ts';
import { FeatureCard } from '../components/feature-card.tsx';
import { HomeCounters } from '../components/home-counters.tsx';
import '../public-pages.css';
import './home-page.css';

const features = [
  {
    title: 'Credit Cards',
    text: 'Debit and credit cards on Visa or Mastercard, with points on everyday spending and no surprise fees.',
    to: '/cards',
    linkText: 'Compare our cards',
    Icon: CreditCard,
  },
  {
    title: 'Savings',
    text: 'Three savings accounts with competitive interest, from a $500 opening deposit.',
    to: '/savings',
    linkText: 'See savings accounts',
    Icon: PiggyBank,
  },
  {
    title: 'Checking',
    text: 'Current accounts for daily spending, bill payments and transfers, from $6.95 a month.',
    to: '/current',
    linkText: 'See checking accounts',
    Icon: Wallet,
  },
  {
    title: 'Safe and Secure',
    text: 'Every cent is recorded twice in a double-entry ledger, and sensitive actions ask for a one-time code.',
    to: '/faq',
    linkText: 'How we protect you',
    Icon: ShieldCheck,
  },
] as const;

function HomeHero({ name }: { name: string }) {
  return (
    <section className="home-hero" aria-labelledby="home-title">
      <div className="container home-hero__inner">
        <div className="home-hero__text">
          <p className="eyebrow">Online banking for everybody</p>
          <h1 id="home-title">Banking that accounts for every cent</h1>
          <p className="home-hero__lead">
            Open a current or savings account in minutes, get a card, and move money with confidence. Clear fees, real people, and a ledger that never loses
            track.
          </p>
          <div className="home-hero__actions">
            <Link to="/signup" className={buttonClassName({ variant: 'primary', size: 'lg' })}>
              Create Account
            </Link>
            <Link to="/savings" className={buttonClassName({ variant: 'secondary', size: 'lg' })}>
              Explore accounts
            </Link>
          </div>
        </div>
        <div className="home-hero__art" aria-hidden="true">
          <div className="hero-card">
            <div className="hero-card__top">
              <span className="hero-card__bank">{name}</span>
              <span className="hero-card__chip" />
            </div>
            <div className="hero-card__dots">•••• •••• •••• ••••</div>
            <div className="hero-card__bottom">
              <span>Debit</span>
              <span className="hero-card__network">
                <span />
                <span />
              </span>
            </div>
          </div>
          <div className="hero-card hero-card--back" />
        </div>
      </div>
    </section>
  );
}

function FeaturesSection() {
  return (
    <section className="section" aria-labelledby="features-title">
      <div className="container">
        <div className="section__header">
          <h2 id="features-title">Everything your money needs</h2>
          <p>One account for spending, saving and borrowing, with the same care behind each of them.</p>
        </div>
        <ul className="card-grid">
          {features.map(({ title, text, to, linkText, Icon }) => (
            <FeatureCard key={title} title={title} text={text} Icon={Icon}>
              <Link to={to} className="feature__link">
                {linkText}
                <ArrowRight aria-hidden="true" size={16} />
              </Link>
            </FeatureCard>
          ))}
        </ul>
      </div>
    </section>
  );
}

export function HomePage() {
  const { name } = useBankIdentity();
  return (
    <>
      <PageMeta
        description={`${name} is an online bank for everybody: savings and checking accounts, debit and credit cards, transfers and bill payments, all in one secure place.`}
      />
      <HomeHero name={name} />
      <FeaturesSection />

      <section className="section section--tinted" aria-labelledby="investing-title">
        <div className="container investing">
          <div className="investing__icon" aria-hidden="true">
            <TrendingUp size={40} />
          </div>
          <div>
            <p className="eyebrow">Investing</p>
            <h2 id="investing-title">Plan for what comes next</h2>
            <p className="investing__text">
              Saving for a home, a business or retirement? Tell us what you are aiming for and one of our advisers will walk you through the options, the risks
              and the costs, in plain words and with no obligation.
            </p>
            <Link to="/contact" className={buttonClassName({ variant: 'primary' })}>
              Get Started
            </Link>
          </div>
        </div>
      </section>

      <HomeCounters />

      <section className="section" aria-labelledby="contact-cta-title">
        <div className="container">
          <div className="cta-band">
            <div>
              <h2 id="contact-cta-title">Questions? We are here to help.</h2>
              <p>Send us a message and a person will answer within {businessConstants.supportReplyHours} hours.</p>
            </div>
            <Link to="/contact" className={buttonClassName({ variant: 'secondary', size: 'lg' })}>
              Contact us
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
