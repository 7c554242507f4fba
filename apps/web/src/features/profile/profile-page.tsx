import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Bell, Camera, CreditCard, FileText, LifeBuoy, UserCog, type LucideIcon } from 'lucide-react';
import { onboardingMessages } from '@strongroom/contracts/onboarding.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Card } from '../../components/ui/card.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { ImageField } from '../../components/ui/image-field.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { useMe } from '../../lib/api/get-me.ts';
import { useUploadProfilePhoto } from '../../lib/api/upload-profile-photo.ts';
import { imageAccept } from '../../lib/images/image-check.ts';
import { useImageChoice } from '../../lib/images/use-image-choice.ts';
import './profile-pages.css';

/** The seed's five profile cards, each to the screen it names. */
const profileCards: readonly { to: string; title: string; text: string; Icon: LucideIcon }[] = [
  { to: '/settings', title: 'Account', text: 'Settings, security and your choices.', Icon: UserCog },
  { to: '/deposit', title: 'Payment Method', text: 'Add money from an account you linked.', Icon: CreditCard },
  { to: '/notifications', title: 'Notification', text: 'What the bank told you.', Icon: Bell },
  { to: '/privacy', title: 'Terms and conditions', text: 'Terms, refunds, delivery times and support.', Icon: FileText },
  { to: '/contact', title: 'Support', text: 'Write to us; we answer within 24 hours.', Icon: LifeBuoy },
];

/** Same rules as onboarding (D3): PNG or JPEG, at most 5 MB, checked here and again on the server, which re-encodes it. */
function ChangePhotoDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const upload = useUploadProfilePhoto();
  const photo = useImageChoice();
  const toast = useToast();
  const [failure, setFailure] = useState<string | null>(null);

  function close() {
    if (upload.isPending) return;
    void photo.choose(null);
    photo.setError(undefined);
    setFailure(null);
    onClose();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFailure(null);
    if (!photo.file) {
      if (!photo.error) photo.setError(onboardingMessages.imageMissing);
      return;
    }
    upload.mutate(photo.file, {
      onSuccess: () => {
        toast.show(onboardingMessages.photoSaved);
        void photo.choose(null);
        onClose();
      },
      onError: (error) => {
        const fieldMessage = error instanceof ApiError ? (error.fields.photo ?? (error.code === 'payload_too_large' ? error.message : undefined)) : undefined;
        if (fieldMessage) photo.setError(fieldMessage);
        else setFailure(error.message);
      },
    });
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      dismissible={!upload.isPending}
      size="sm"
      title="Change your photo"
      description={<p>Your new photo replaces the old one everywhere you see it.</p>}
      footer={
        <>
          <Button variant="secondary" onClick={close} disabled={upload.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="change-photo-form" loading={upload.isPending}>
            Save photo
          </Button>
        </>
      }
    >
      <form id="change-photo-form" className="profile__photo-form" noValidate onSubmit={onSubmit}>
        <ImageField
          label="New profile photo"
          hint="PNG or JPEG, at most 5 MB. We crop it to a square."
          accept={imageAccept}
          file={photo.file}
          onFileChange={(file) => void photo.choose(file)}
          error={photo.error}
          previewShape="round"
          previewAlt="Preview of your new profile photo"
          name="photo"
          disabled={upload.isPending}
        />
        {failure ? (
          <p role="alert" className="field__error">
            The photo was not saved: {failure}
          </p>
        ) : null}
      </form>
    </Dialog>
  );
}

/** /profile (seed section 2): the photo, name, email and phone, and the five cards. */
export default function ProfilePage() {
  const me = useMe();
  const [changing, setChanging] = useState(false);

  return (
    <Page className="profile">
      <PageMeta title="Profile" description="Your profile." noIndex />
      <PageHeader title="Profile" />

      {me.isPending ? (
        <LoadingLine>Loading your profile…</LoadingLine>
      ) : me.isError ? (
        <LoadFailed title="We could not load your profile" query={me} />
      ) : (
        <Card as="section" aria-labelledby="profile-name" className="profile__section">
          <div className="profile__identity">
            {me.data.user.profilePhotoUrl ? (
              <img className="profile__photo" src={me.data.user.profilePhotoUrl} alt="Your profile photo" width={112} height={112} />
            ) : (
              <span className="profile__photo profile__initials" aria-hidden="true">
                {me.data.user.firstName.slice(0, 1)}
                {me.data.user.lastName.slice(0, 1)}
              </span>
            )}
            <div className="profile__facts">
              <h2 id="profile-name" className="profile__name">
                {me.data.user.firstName} {me.data.user.lastName}
              </h2>
              <dl className="profile__details">
                <dt>Email</dt>
                <dd>{me.data.user.email}</dd>
                <dt>Phone</dt>
                <dd>{me.data.user.phoneNumber ?? 'Not added yet'}</dd>
              </dl>
              <div>
                <Button variant="secondary" onClick={() => setChanging(true)}>
                  <Camera aria-hidden="true" size={18} />
                  Change photo
                </Button>
              </div>
            </div>
          </div>
        </Card>
      )}

      <nav aria-label="Your profile">
        <ul className="tile-grid profile__cards">
          {profileCards.map(({ to, title, text, Icon }) => (
            <li key={to}>
              <Link to={to} className="profile__card">
                <Icon aria-hidden="true" size={22} className="settings__icon" />
                <span>
                  <span className="profile__card-title">{title}</span>
                  <span className="profile__card-text">{text}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      </nav>

      <ChangePhotoDialog open={changing} onClose={() => setChanging(false)} />
    </Page>
  );
}
