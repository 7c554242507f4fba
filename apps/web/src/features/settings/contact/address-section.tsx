import { useId, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { MapPin } from 'lucide-react';
import { postalAddressSchema, type ContactDetails, type PostalAddressInput } from '@strongroom/contracts/contact-details.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { CountryField, PostalAddressFields, type PostalAddressFieldName } from '../../../components/forms/postal-address-fields.tsx';
import { defaultCountryCode } from '../../../lib/countries.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { useChangeAddress } from './api/contact-details.ts';
import { placeChangeError } from './change-errors.ts';

const fieldNames: readonly Path<PostalAddressInput>[] = ['country', 'address', 'city', 'state', 'zipCode'];

/** The postal address: the identity step's fields and rules (decision 055), behind a code. */
export function AddressSection({ contact }: { contact: ContactDetails }) {
  const change = useChangeAddress();
  const toast = useToast();
  const titleId = useId();
  const [errorMessage, setErrorMessage] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<PostalAddressInput>({
    resolver: zodResolver(postalAddressSchema),
    mode: 'onTouched',
    defaultValues: contact.address ?? { country: defaultCountryCode, address: '', city: '', state: '', zipCode: '' },
  });

  const addressField = (name: PostalAddressFieldName) => ({ ...register(name), error: errors[name]?.message });

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await change.submit(values);
    if (outcome.status === 'done') toast.show('Your postal address is saved. We emailed you about it.');
    else if (outcome.status === 'failed') setErrorMessage(placeChangeError(outcome.error, fieldNames, setError));
  });

  return (
    <Card as="section" aria-labelledby={titleId} className="security-section">
      <div className="security-section__header">
        <MapPin aria-hidden="true" size={22} className="security-section__icon" />
        <h2 id={titleId} className="security-section__title">
          Postal address
        </h2>
      </div>
      <p className="security-section__lead">
        {contact.address ? 'Where we send post. Change it here; we ask for a code first.' : 'We have no postal address for you yet. We ask for a code first.'}
      </p>
      <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Change postal address">
        <CountryField field={addressField} />
        <PostalAddressFields field={addressField} />
        <div className="security-form__actions">
          <Button type="submit" loading={change.isPending}>
            Save address
          </Button>
        </div>
      </form>
      <StepUpDialog {...change.dialog} />
      <ErrorDialog title="Your address was not changed" message={errorMessage} onClose={() => setErrorMessage(null)} />
    </Card>
  );
}
