import { useFieldArray, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import { Plus, Trash2 } from 'lucide-react';
import { maxInterestTiers } from '@strongroom/contracts/products.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import type { TermsForm } from './terms-form-schema.ts';

/** The interest tiers of the terms form: each a balance it starts at and a rate; the whole balance earns the highest tier it reaches. */
export function TierFields({
  control,
  register,
  errors,
}: {
  control: Control<TermsForm>;
  register: UseFormRegister<TermsForm>;
  errors: FieldErrors<TermsForm>;
}) {
  const tiers = useFieldArray({ control, name: 'tiers' });
  return (
    <fieldset className="ops-form__group">
      <legend>Interest by balance</legend>
      <p className="field__hint">
        The first tier starts at $0; each next one at a higher balance. The whole balance earns the rate of the highest tier it reaches.
      </p>
      {tiers.fields.map((tier, index) => (
        <div key={tier.id} className="ops-form__row terms-form__tier" role="group" aria-label={`Tier ${index + 1}`}>
          <TextField
            label="From a balance of ($)"
            inputMode="decimal"
            required
            error={errors.tiers?.[index]?.from?.message}
            {...register(`tiers.${index}.from`)}
          />
          <TextField label="Interest rate (%)" inputMode="decimal" required error={errors.tiers?.[index]?.rate?.message} {...register(`tiers.${index}.rate`)} />
          {tiers.fields.length > 1 ? (
            <Button type="button" variant="secondary" size="sm" onClick={() => tiers.remove(index)} aria-label={`Remove tier ${index + 1}`}>
              <Trash2 aria-hidden="true" size={16} />
              Remove
            </Button>
          ) : null}
        </div>
      ))}
      {tiers.fields.length < maxInterestTiers ? (
        <Button type="button" variant="secondary" size="sm" onClick={() => tiers.append({ from: '', rate: '' })}>
          <Plus aria-hidden="true" size={16} />
          Add a tier
        </Button>
      ) : null}
      {errors.tiers?.message ? <p role="alert">{errors.tiers.message}</p> : null}
    </fieldset>
  );
}
