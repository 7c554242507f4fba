import { IdCard } from 'lucide-react';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { ImageField } from '../../../components/ui/image-field.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { LoadingOverlay } from '../../../components/ui/loading-overlay.tsx';
import { useIdentityStatus } from '../api/get-identity-status.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { imageAccept } from '../../../lib/images/image-check.ts';
import { IdentityDetailsFields } from './identity-details-fields.tsx';
import { useAfterStepError } from './use-after-step-error.ts';
import { useRegistrationForm } from './use-registration-form.ts';
import './onboarding-pages.css';

/**
 * /registeration: a photo of a passport or ID card and the identity details a US bank must collect
 * (decision 055), sent together as one multipart upload to the bank (docs/product.md D3). A failed upload
 * is shown and the flow stops there.
 */
export default function RegistrationPage() {
  const identityStatus = useIdentityStatus();
  const rejection = identityStatus.data?.status === 'rejected' ? identityStatus.data.reason : null;
  const afterStepError = useAfterStepError();
  const { form, documentImage, formRef, onSubmit, sending, dialogError, clearDialogError } = useRegistrationForm();
  const {
    register,
    watch,
    formState: { errors },
  } = form;

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
        <IdentityDetailsFields register={register} errors={errors} idType={watch('idType')} />
        <Button type="submit" size="lg" block loading={sending}>
          Send for checking
        </Button>
      </form>
      <LoadingOverlay open={sending} label="Uploading your document" />
      <ErrorDialog
        title="Your document was not sent"
        message={dialogError instanceof Error ? dialogError.message : null}
        onClose={() => {
          afterStepError(dialogError);
          clearDialogError();
        }}
      />
    </AuthScreen>
  );
}
