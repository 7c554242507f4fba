import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Camera } from 'lucide-react';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { ImageField } from '../../../components/ui/image-field.tsx';
import { LoadingOverlay } from '../../../components/ui/loading-overlay.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useMe } from '../../../lib/api/get-me.ts';
import { useUploadProfilePhoto } from '../../../lib/api/upload-profile-photo.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { imageAccept } from '../../../lib/images/image-check.ts';
import { useAfterStepError } from './use-after-step-error.ts';
import { useImageChoice } from '../../../lib/images/use-image-choice.ts';

/**
 * /profilephoto: the last onboarding step, then /success. A customer who has finished onboarding
 * can come back here to change the photo, and returns to the dashboard.
 */
export default function ProfilePhotoPage() {
  const navigate = useNavigate();
  const toast = useToast();
  const me = useMe();
  const upload = useUploadProfilePhoto();
  const afterStepError = useAfterStepError();
  const photo = useImageChoice();
  const [dialogError, setDialogError] = useState<unknown>(null);
  const onboarding = me.data?.next === 'profile-photo';

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!photo.file) {
      if (!photo.error) photo.setError(onboardingMessages.imageMissing);
      event.currentTarget.querySelector<HTMLElement>('input[type="file"]')?.focus();
      return;
    }
    upload.mutate(photo.file, {
      onSuccess: () => {
        if (onboarding) {
          navigate('/success', { replace: true });
          return;
        }
        toast.show(onboardingMessages.photoSaved);
        navigate('/dashboard');
      },
      onError: (error) => {
        const fieldMessage = error instanceof ApiError ? (error.fields.photo ?? (error.code === 'payload_too_large' ? error.message : undefined)) : undefined;
        if (fieldMessage) photo.setError(fieldMessage);
        else setDialogError(error);
      },
    });
  }

  return (
    <AuthScreen
      title="Add a profile photo"
      pageTitle="Profile photo"
      description="Choose the photo shown on your profile."
      icon={<Camera aria-hidden="true" size={28} />}
      lead={<p>A clear photo of your face helps our staff recognise you when you ask for help.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <ImageField
          label="Profile photo"
          hint="PNG or JPEG, at most 5 MB. We crop it to a square."
          accept={imageAccept}
          file={photo.file}
          onFileChange={(file) => void photo.choose(file)}
          error={photo.error}
          previewShape="round"
          previewAlt="Preview of your profile photo"
          name="photo"
        />
        <Button type="submit" size="lg" block loading={upload.isPending}>
          Upload photo
        </Button>
      </form>
      <LoadingOverlay open={upload.isPending} label="Uploading your photo" />
      <ErrorDialog
        title="Your photo was not saved"
        message={dialogError instanceof Error ? dialogError.message : null}
        onClose={() => {
          afterStepError(dialogError);
          setDialogError(null);
        }}
      />
    </AuthScreen>
  );
}
