import { useState, type FormEvent } from 'react';
import type { Product } from '@strongroom/contracts/products.ts';
import { Button } from '../../components/ui/button.tsx';
import { FieldError } from '../../components/ui/field.tsx';
import { monthlyFeeText, openingDepositText, rateText } from '../../components/accounts/product-facts.ts';

const kindNames = { checking: 'Checking', savings: 'Savings' } as const;

/** The catalogue as radio choices, each with its fee, how the fee is waived, its opening deposit, rate and APY. */
export function ProductChoice({ products, chosen, onChoose }: { products: readonly Product[]; chosen: string | null; onChoose: (product: Product) => void }) {
  const [selected, setSelected] = useState(chosen ?? '');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const product = products.find((candidate) => candidate.id === selected);
    if (!product) {
      setError('choose an account type');
      return;
    }
    onChoose(product);
  }

  return (
    <form onSubmit={submit} noValidate className="open-account__form">
      {(['checking', 'savings'] as const).map((kind) => (
        <fieldset key={kind} className="open-account__products">
          <legend>{kindNames[kind]}</legend>
          {products
            .filter((product) => product.kind === kind)
            .map((product) => (
              <label key={product.id} className="open-account__product">
                <input
                  type="radio"
                  name="productId"
                  value={product.id}
                  checked={selected === product.id}
                  onChange={() => {
                    setSelected(product.id);
                    setError(undefined);
                  }}
                />
                <span className="open-account__product-text">
                  <strong>{product.name}</strong>
                  <span>{monthlyFeeText(product)}</span>
                  {product.waiverText ? <span>{product.waiverText}</span> : null}
                  <span>{openingDepositText(product)}</span>
                  <span>{rateText(product)}</span>
                </span>
              </label>
            ))}
        </fieldset>
      ))}
      {error ? <FieldError id="product-error">{error}</FieldError> : null}
      <Button type="submit">Continue</Button>
    </form>
  );
}
