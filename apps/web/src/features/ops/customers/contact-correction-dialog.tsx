import { useState, type FormEvent } from 'react';
import { contactCorrectionRequestSchema, type ContactCorrectionRequest, type PostalAddress } from '@strongroom/contracts/contact-details.ts';
import { usStates } from '@strongroom/contracts/us-states.ts';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, type SelectOption } from '../../../components/ui/select-field.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { countryOptions, phoneCountryOptions } from '../../../lib/countries.ts';
import { useCorrectContact } from './api/correct-contact.ts';
import { DialogFormActions } from './dialog-form-actions.tsx';

const stateOptions: readonly SelectOption[] = usStates.map((state) => ({ value: state.code, label: state.name }));

type Form = Record<'email' | 'countryCode' | 'phoneNumber' | 'country' | 'address' | 'city' | 'state' | 'zipCode' | 'reason', string>;
/** Field names as the server's `fields` say them ('phone.phoneNumber', 'address.city'). */
type ErrorKey = string;

export interface ContactCorrectionDialogProps {
  customerId: string;
  fullName: string;
  address: PostalAddress | null;
  onDone: (message: string) => void;
  onClose: () => void;
}

/** Only what staff filled in is sent: an empty email or phone, or an untouched address, stays as it is. */
function requestOf(form: Form, initialAddress: PostalAddress | null): ContactCorrectionRequest {
  const address = { country: form.country, address: form.address, city: form.city, state: form.state, zipCode: form.zipCode };
  const addressTouched = JSON.stringify(address) !== JSON.stringify(initialAddress ?? { country: 'US', address: '', city: '', state: '', zipCode: '' });
  return {
    ...(form.email.trim() ? { email: form.email } : {}),
    ...(form.phoneNumber.trim() ? { phone: { countryCode: form.countryCode, phoneNumber: form.phoneNumber } } : {}),
    ...(addressTouched ? { address } : {}),
    reason: form.reason,
  };
}

/**
 * Staff correct a customer's email, phone or postal address (issue 39 item 7) with a reason kept in
 * the audit log. What they set counts as verified, and the customer is told at the old and new places.
 */
export function ContactCorrectionDialog({ customerId, fullName, address, onDone, onClose }: ContactCorrectionDialogProps) {
  const correct = useCorrectContact(customerId);
  const [form, setForm] = useState<Form>({
    email: '',
    countryCode: 'US',
    phoneNumber: '',
    country: address?.country ?? 'US',
    address: address?.address ?? '',
    city: address?.city ?? '',
    state: address?.state ?? '',
    zipCode: address?.zipCode ?? '',
    reason: '',
  });
  const [errors, setErrors] = useState<Record<ErrorKey, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const bind = (name: keyof Form) => ({
    value: form[name],
    onChange: (event: { target: { value: string } }) => setForm((current) => ({ ...current, [name]: event.target.value })),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const parsed = contactCorrectionRequestSchema.safeParse(requestOf(form, address));
    if (!parsed.success) {
      const found: Record<ErrorKey, string> = {};
      for (const issue of parsed.error.issues) found[issue.path.join('.')] ??= issue.message;
      setErrors(found);
      return;
    }
    setErrors({});
    correct.mutate(parsed.data, {
      onSuccess: (answer) =>
        onDone(
          answer.changed.length === 0 ? 'Nothing changed: the details were already as entered.' : `Corrected for ${fullName}: ${answer.changed.join(', ')}.`,
        ),
      onError: (error) => {
        if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors({ ...error.fields });
        else setFailure(error.message);
      },
    });
  }

  return (
    <Dialog
      open
      onClose={onClose}
      title={`Correct ${fullName}'s contact details`}
      description="Fill in only what changes. The customer is told at the old and the new address or number."
      dismissible={!correct.isPending}
    >
      <form onSubmit={submit} noValidate className="customer-care__correction">
        <fieldset>
          <legend>Email</legend>
          <TextField label="New email address" type="email" optional error={errors.email} {...bind('email')} />
        </fieldset>
        <fieldset>
          <legend>Phone</legend>
          <SelectField label="Phone country" options={phoneCountryOptions} error={errors['phone.countryCode']} {...bind('countryCode')} />
          <TextField label="New phone number" type="tel" optional error={errors['phone.phoneNumber']} {...bind('phoneNumber')} />
        </fieldset>
        <fieldset>
          <legend>Postal address</legend>
          <SelectField label="Country" options={countryOptions} error={errors['address.country']} {...bind('country')} />
          <TextAreaField label="Street address" hint="One or two lines." rows={2} error={errors['address.address']} {...bind('address')} />
          <TextField label="City" error={errors['address.city']} {...bind('city')} />
          <SelectField label="State" placeholder="Choose a state" options={stateOptions} error={errors['address.state']} {...bind('state')} />
          <TextField label="ZIP code" inputMode="numeric" error={errors['address.zipCode']} {...bind('zipCode')} />
        </fieldset>
        <TextAreaField label="Reason (kept in the audit log)" rows={3} maxLength={500} error={errors.reason} {...bind('reason')} />
        <DialogFormActions
          failure={failure}
          busy={correct.isPending}
          confirmLabel={<>Save corrections for {fullName}</>}
          confirmVariant="primary"
          onCancel={onClose}
        />
      </form>
    </Dialog>
  );
}
