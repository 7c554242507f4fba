import { Link, useParams } from 'react-router';
import { MailCheck } from 'lucide-react';
import { contactDetailsMessages, emailChangeConfirmRequestSchema } from '@strongroom/contracts/contact-details.ts';
import { PageMeta } from '../../../components/page-meta.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { useConfirmEmailChange } from './api/contact-details.ts';
import '../security/security.css';
import './contact-details.css';

/**
 * /email-change/{token}: the link sent to a new email address, opened signed in (the route guard
 * asks for the sign-in first). The customer confirms with a button, so that a mail program that
 * opens links to scan them changes nothing.
 */
export default function EmailChangePage() {
  const { token = '' } = useParams();
  const wellFormed = emailChangeConfirmRequestSchema.safeParse({ token }).success;
  const confirm = useConfirmEmailChange();

  return (
    <div className="security-page">
      <PageMeta title="Confirm your new email address" description="Confirm the new email address of your account." noIndex />
      <header className="security-page__header">
        <h1>Confirm your new email address</h1>
        <p>Once confirmed, we write to this address and you sign in with it.</p>
      </header>
      <Card as="section" aria-label="Confirmation" className="security-section">
        {confirm.isSuccess ? (
          <Notice tone="success" role="status">
            Your email address is now <strong className="contact-details__value">{confirm.data.email}</strong>. We told your old address.{' '}
            <Link to="/settings/contact">Back to your contact details</Link>
          </Notice>
        ) : !wellFormed || confirm.isError ? (
          <Notice tone="error" role="alert">
            {confirm.error?.message ?? contactDetailsMessages.linkInvalid} <Link to="/settings/contact">Go to your contact details</Link>
          </Notice>
        ) : (
          <div className="security-form__actions">
            <Button onClick={() => confirm.mutate(token)} loading={confirm.isPending}>
              <MailCheck aria-hidden="true" size={18} /> Confirm new email address
            </Button>
          </div>
        )}
      </Card>
    </div>
  );
}
