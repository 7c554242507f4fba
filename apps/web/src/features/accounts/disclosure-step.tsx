import { useState, type FormEvent } from 'react';
import { accountManagementMessages } from '@strongroom/contracts/account-management.ts';
import { formatMoney } from '@strongroom/contracts/money.ts';
import { interestMethodText, type Product } from '@strongroom/contracts/products.ts';
import { Button } from '../../components/ui/button.tsx';
import { Checkbox } from '../../components/ui/checkbox.tsx';
import { FactList, FactRow } from '../../components/ui/fact-list.tsx';
import { monthlyFeeText, percentOfBps } from '../../components/accounts/product-facts.ts';

/** The product's Truth in Savings disclosure (Regulation DD, 12 CFR 1030.4): rates, APY, fees and minimums. */
export function Disclosure({ product }: { product: Product }) {
  return (
    <section aria-labelledby="disclosure-title" className="open-account__disclosure">
      <h2 id="disclosure-title">Truth in Savings disclosure: {product.name}</h2>
      <FactList>
        <FactRow term="Annual percentage yield (APY)">{percentOfBps(product.apyBps)}</FactRow>
        <FactRow term="Interest rate">{percentOfBps(product.interestRateBps)}</FactRow>
        {product.tiers.length > 1 ? (
          <FactRow term="Rates by balance">
            <ul className="open-account__tiers">
              {product.tiers.map((tier) => (
                <li key={tier.fromCents}>
                  From {formatMoney(tier.fromCents)}: {percentOfBps(tier.rateBps)} interest rate, {percentOfBps(tier.apyBps)} APY
                </li>
              ))}
            </ul>
          </FactRow>
        ) : null}
        <FactRow term="Monthly fee">{monthlyFeeText(product)}</FactRow>
        {product.waiverText ? <FactRow term="How to avoid the fee">{product.waiverText}</FactRow> : null}
        <FactRow term="Minimum opening deposit">{formatMoney(product.openingDepositCents)}</FactRow>
      </FactList>
      <p>{interestMethodText}</p>
      <p>The rate and the APY may change after the account is opened; we tell you before a change takes effect. Fees may reduce earnings.</p>
    </section>
  );
}

/** The disclosure, then "I have read and accept": nothing further until it is ticked. */
export function DisclosureStep({ product, onAccept, onBack }: { product: Product; onAccept: () => void; onBack: () => void }) {
  const [accepted, setAccepted] = useState(false);
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!accepted) {
      setError(accountManagementMessages.acceptDisclosure);
      return;
    }
    onAccept();
  }

  return (
    <form onSubmit={submit} noValidate className="open-account__form">
      <Disclosure product={product} />
      <Checkbox
        label="I have read and accept the disclosure"
        checked={accepted}
        error={error}
        onChange={(event) => {
          setAccepted(event.target.checked);
          if (event.target.checked) setError(undefined);
        }}
      />
      <div className="open-account__actions">
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
        <Button type="submit">Continue</Button>
      </div>
    </form>
  );
}
