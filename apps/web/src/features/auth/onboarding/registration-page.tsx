import { useEffect, useRef, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { IdCard } from 'lucide-react';
import {
  earliestBirthDate,
  identityFieldsSchema,
  idTypeLabels,
  idTypes,
  latestAdultBirthDate,
  onboardingMessages,
  type IdentityFields,
  type IdType,
} from '@strongroom/contracts/onboarding.ts';
import { usStates } from '@strongroom/contracts/us-states.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { ImageField } from '../../../components/ui/image-field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { LoadingOverlay } from '../../../components/ui/loading-overlay.tsx';
import { SelectField, type SelectOption } from '../../../components/ui/select-field.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useIdentityStatus } from '../api/get-identity-status.ts';
import { useSubmitIdentity } from '../api/submit-identity.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { pathForNextStep } from '../next-step.ts';
import { countryOptions, defaultCountryCode } from '../../../lib/countries.ts';
import { imageAccept } from '../../../lib/images/image-check.ts';
import { useAfterStepError } from './use-after-step-error.ts';
import './onboarding-pages.css';
import { useImageChoice } from '../../../lib/images/use-image-choice.ts';

const fieldNames: readonly Path<IdentityFields>[] = ['idType', 'idNumber', 'dateOfBirth', 'country', 'address', 'city', 'state', 'zipCode'];

const idTypeOptions: readonly SelectOption[] = idTypes.map((idType) => ({ value: idType, label: idTypeLabels[idType] }));
const stateOptions: readonly SelectOption[] = usStates.map((state) => ({ value: state.code, label: state.name }));

/** What the number looks like for each kind of ID, said before the customer types it. */
const idNumberHints: Readonly<Record<IdType, string>> = {
  ssn: '9 digits, like 123-45-6789.',
  drivers_license: 'As printed on your license: letters, digits and dashes.',
  passport: '9 letters and digits, as printed on your passport.',
};

/**
 * /registeration: a photo of a passport or ID card and the identity details a US bank must collect
 * (decision 055), sent together as one multipart upload to the bank (docs/product.md D3). A failed upload
 * is shown and the flow stops there.
 */
export default function RegistrationPage() {
  const navigate = useNavigate();
  const submit = useSubmitIdentity();
  const identityStatus = useIdentityStatus();
  const rejection = identityStatus.data?.status === 'rejected' ? identityStatus.data.reason : null;
  const afterStepError = useAfterStepError();
  const documentImage = useImageChoice();
  const formRef = useRef<HTMLFormElement>(null);
  const [focusFirstError, setFocusFirstError] = useState(0);
  const [dialogError, setDialogError] = useState<unknown>(null);
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<IdentityFields>({
    resolver: zodResolver(identityFieldsSchema),
    mode: 'onTouched',
    // The image field comes first and is not one of the form library's fields, so the first
    // wrong field, in page order, is focused here rather than by the library.
    shouldFocusError: false,
    // No kind of ID is chosen for the customer: the select starts on its placeholder.
    defaultValues: { idNumber: '', dateOfBirth: '', country: defaultCountryCode, address: '', city: '', state: '', zipCode: '' },
  });
  const idType = watch('idType');

  useEffect(() => {
    if (focusFirstError > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  const requireDocument = (): File | null => {
    if (!documentImage.file && !documentImage.error) documentImage.setError(onboardingMessages.imageMissing);
    return documentImage.file;
  };

  const onSubmit = handleSubmit(
    (values) => {
      const document = requireDocument();
      if (!document) {
        setFocusFirstError((count) => count + 1);
        return;
      }
      submit.mutate(
        { ...values, document },
        {
          onSuccess: (session) => navigate(pathForNextStep(session.next, session.user.email)),
          onError: (error) => {
            const documentMessage =
              error instanceof ApiError ? (error.fields.document ?? (error.code === 'payload_too_large' ? error.message : undefined)) : undefined;
            if (documentMessage) documentImage.setError(documentMessage);
            const placed = showServerFieldErrors(error, fieldNames, setError);
            if (documentMessage || placed) setFocusFirstError((count) => count + 1);
            else setDialogError(error);
          },
        },
      );
    },
    () => {
      requireDocument();
      setFocusFirstError((count) => count + 1);
    },
  );

  return (
    <AuthScreen
      title="Confirm your identity"
      description="Upload an identity document and your details."
      icon={<IdCard aria-hidden="true" size={28} />}
      lead={<p>The law asks us to know who our customers are. We keep your document encrypted and show it only to the staff who check it.</p>}
    >
      {rejection ? <Notice tone="error">We could not verify your identity: {rejection}. Please send a new document.</Notice> : null}
      <form ref={formRef} className="auth-form" noValidate onSubmit={onSubmit}>
        <ImageField
          label="Passport or ID"
          hint="A photo or scan of the page with your photo: PNG or JPEG, at most 5 MB."
          accept={imageAccept}
          file={documentImage.file}
          onFileChange={(file) => void documentImage.choose(file)}
          error={documentImage.error}
          previewAlt="Preview of your document"
          name="document"
        />
        <SelectField label="Kind of ID" placeholder="Choose the kind of ID" options={idTypeOptions} error={errors.idType?.message} {...register('idType')} />
        <TextField
          label="ID number"
          hint={idType ? idNumberHints[idType] : 'Choose the kind of ID first.'}
          autoComplete="off"
          spellCheck={false}
          required
          error={errors.idNumber?.message}
          {...register('idNumber')}
        />
        <TextField
          label="Date of birth"
          type="date"
          autoComplete="bday"
          min={earliestBirthDate}
          max={latestAdultBirthDate()}
          hint="You must be 18 or over."
          required
          error={errors.dateOfBirth?.message}
          {...register('dateOfBirth')}
        />
        <SelectField
          label="Country"
          autoComplete="country"
          placeholder="Choose a country"
          options={countryOptions}
          error={errors.country?.message}
          {...register('country')}
        />
        <fieldset className="identity-address">
          <legend>Home address in the United States</legend>
          <TextAreaField
            label="Street address"
            hint="One or two lines: the street and number, then an apartment or suite if you have one."
            rows={2}
            autoComplete="street-address"
            required
            error={errors.address?.message}
            {...register('address')}
          />
          <TextField label="City" autoComplete="address-level2" required error={errors.city?.message} {...register('city')} />
          <div className="identity-address__row">
            <SelectField
              label="State"
              autoComplete="address-level1"
              placeholder="Choose a state"
              options={stateOptions}
              error={errors.state?.message}
              {...register('state')}
            />
            <TextField
              label="ZIP code"
              inputMode="numeric"
              autoComplete="postal-code"
              hint="5 digits, or ZIP+4."
              required
              error={errors.zipCode?.message}
              {...register('zipCode')}
            />
          </div>
        </fieldset>
        <Button type="submit" size="lg" block loading={submit.isPending}>
          Send for checking
        </Button>
      </form>
      <LoadingOverlay open={submit.isPending} label="Uploading your document" />
      <ErrorDialog
        title="Your document was not sent"
        message={dialogError instanceof Error ? dialogError.message : null}
        onClose={() => {
          afterStepError(dialogError);
          setDialogError(null);
        }}
      />
    </AuthScreen>
  );
}
