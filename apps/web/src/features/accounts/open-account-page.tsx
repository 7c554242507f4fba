import { useRef, useState } from 'react';
import type { ManagedAccount } from '@strongroom/contracts/account-management.ts';
import type { Product } from '@strongroom/contracts/products.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import { useProducts } from '../../lib/api/get-products.ts';
import { useVerifiedSources } from './api/get-verified-sources.ts';
import { DisclosureStep } from './disclosure-step.tsx';
import { FundingStep, type FundingChoice } from './funding-step.tsx';
import { openingRequestOf, sourceOptions, type OpeningFormValues } from './opening-source.ts';
import { OpeningDone } from './opening-done.tsx';
import { OpeningReview } from './opening-review.tsx';
import { ProductChoice } from './product-choice.tsx';
import './accounts.css';

type Step = 'product' | 'disclosure' | 'funding' | 'review' | 'done';

const titles: Record<Step, string> = {
  product: 'Open an account',
  disclosure: 'Read the disclosure',
  funding: 'Opening deposit',
  review: 'Check and open',
  done: 'Account opened',
};

/**
 * `/accounts/open`: choose a product, read and accept its Truth in Savings disclosure, choose the
 * opening deposit and where it comes from, check, then open. Each step's heading takes focus.
 */
export default function OpenAccountPage() {
  const products = useProducts();
  const accounts = useAccounts();
  const sources = useVerifiedSources();
  const [step, setStep] = useState<Step>('product');
  const [product, setProduct] = useState<Product | null>(null);
  const [typed, setTyped] = useState<OpeningFormValues>({ source: '', amount: '' });
  const [choice, setChoice] = useState<FundingChoice | null>(null);
  const [opened, setOpened] = useState<ManagedAccount | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const go = (next: Step) => {
    setStep(next);
    requestAnimationFrame(() => heading.current?.focus());
  };

  const failed = products.isError ? products : accounts.isError ? accounts : sources.isError ? sources : null;
  const data = products.data && accounts.data && sources.data ? { products: products.data, accounts: accounts.data, sources: sources.data } : null;
  let body;
  if (failed) body = <LoadFailed title="We could not load what you need to open an account" headingLevel={2} query={failed} />;
  else if (!data) body = <LoadingLine>Loading the accounts we offer…</LoadingLine>;
  else if (step === 'product' || !product)
    body = (
      <ProductChoice
        products={data.products}
        chosen={product?.id ?? null}
        onChoose={(next) => {
          setProduct(next);
          go('disclosure');
        }}
      />
    );
  else if (step === 'disclosure') body = <DisclosureStep product={product} onAccept={() => go('funding')} onBack={() => go('product')} />;
  else if (step === 'funding')
    body = (
      <FundingStep
        product={product}
        accounts={data.accounts}
        sources={data.sources}
        initial={typed}
        onBack={() => go('disclosure')}
        onDone={(next, values) => {
          setChoice(next);
          setTyped(values);
          go('review');
        }}
      />
    );
  else if (step === 'review' && choice) {
    const label = sourceOptions(data.accounts, data.sources).find((option) => option.value === choice.source)?.label ?? null;
    body = (
      <OpeningReview
        product={product}
        request={openingRequestOf(product, choice)}
        sourceLabel={label}
        onBack={() => go('funding')}
        onOpened={(account) => {
          setOpened(account);
          go('done');
        }}
      />
    );
  } else body = opened ? <OpeningDone account={opened} /> : null;

  return (
    <Page className="open-account">
      <PageMeta title="Open an account" description="Open another checking or savings account." noIndex />
      <BackLink to="/dashboard">Dashboard</BackLink>
      <PageHeader
        title={titles[step]}
        titleRef={heading}
        lead={step === 'product' ? 'Choose the account you want. You read its terms before anything is opened.' : undefined}
      />
      {body}
    </Page>
  );
}
