import { useEffect, useRef, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { identityFieldsSchema, onboardingMessages, type IdentityFields } from '@strongroom/contracts/onboarding.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { defaultCountryCode } from '../../../lib/countries.ts';
import { useImageChoice } from '../../../lib/images/use-image-choice.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { useSubmitIdentity } from '../api/submit-identity.ts';
import { pathForNextStep } from '../next-step.ts';

const fieldNames: readonly Path<IdentityFields>[] = ['idType', 'idNumber', 'dateOfBirth', 'country', 'address', 'city', 'state', 'zipCode'];

/**
 * The identity step's form: the document photo beside the typed details, sent as one upload. A
 * refusal lands under its field (the first wrong one in page order takes the focus), anything
 * else in a dialog.
 */
export function useRegistrationForm() {
  const navigate = useNavigate();
  const submit = useSubmitIdentity();
  const documentImage = useImageChoice();
  const formRef = useRef<HTMLFormElement>(null);
  const [focusFirstError, setFocusFirstError] = useState(0);
  const [dialogError, setDialogError] = useState<unknown>(null);
  const form = useForm<IdentityFields>({
    resolver: zodResolver(identityFieldsSchema),
    mode: 'onTouched',
    // The image field comes first and is not one of the form library's fields, so the first
    // wrong field, in page order, is focused here rather than by the library.
    shouldFocusError: false,
    // No kind of ID is chosen for the customer: the select starts on its placeholder.
    defaultValues: { idNumber: '', dateOfBirth: '', country: defaultCountryCode, address: '', city: '', state: '', zipCode: '' },
  });

  useEffect(() => {
    if (focusFirstError > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [focusFirstError]);

  const requireDocument = (): File | null => {
    if (!documentImage.file && !documentImage.error) documentImage.setError(onboardingMessages.imageMissing);
    return documentImage.file;
  };

  const onSubmit = form.handleSubmit(
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
            const placed = showServerFieldErrors(error, fieldNames, form.setError);
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

  return { form, documentImage, formRef, onSubmit, sending: submit.isPending, dialogError, clearDialogError: () => setDialogError(null) };
}
