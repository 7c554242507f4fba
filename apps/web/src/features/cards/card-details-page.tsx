import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ArrowLeft, Eye, EyeOff, Lock, Trash2, Unlock } from 'lucide-react';
import { cardMessages, cardTypeLabels, type Card } from '@strongroom/contracts/cards.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { MoneyAmount } from '../../components/ui/money-amount.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { StepUpDialog } from '../../components/step-up/step-up-dialog.tsx';
import { ConfirmDialog } from '../../components/forms/confirm-dialog.tsx';
import { useDeleteCard, useFreezeCard } from './api/card-actions.ts';
import { useCard } from '../../lib/api/get-cards.ts';
import { CardLimitsForm } from './card-limits-form.tsx';
import { CardPicture } from './card-picture.tsx';
import { CardRevealsList } from './card-reveals-list.tsx';
import { CardTransactions } from './card-transactions.tsx';
import { ApprovalNotice } from './card-request-form.tsx';
import { cardName, cardStatusLabels, groupedNumber, maskedNumber } from './card-words.ts';
import { PayCardForm } from './pay-card-form.tsx';
import { useCardReveal } from './use-card-reveal.ts';
import './cards.css';
import { LoadingLine } from '../../components/ui/loading-line.tsx';

function BackToCards() {
  return (
    <Link to="/card" className="cards__back">
      <ArrowLeft aria-hidden="true" size={18} /> Back to cards
    </Link>
  );
}

/** Debit: the linked account's available balance. Credit: available credit, the limit and what is owed. */
function CardBalance({ card }: { card: Card }) {
  if (card.type === 'debit') {
    return (
      <>
        <dl className="card-balance">
          <div>
            <dt>Balance</dt>
            <dd>
              <MoneyAmount cents={card.balanceCents} />
            </dd>
          </div>
        </dl>
        <p className="card-balance__note">Available in the checking account this card spends from.</p>
      </>
    );
  }
  return (
    <>
      <dl className="card-balance">
        <div>
          <dt>Available credit</dt>
          <dd>
            <MoneyAmount cents={card.balanceCents} />
          </dd>
        </div>
        <div>
          <dt>Credit limit</dt>
          <dd>
            <MoneyAmount cents={card.creditLimitCents ?? 0} />
          </dd>
        </div>
        <div>
          <dt>Balance owed</dt>
          <dd>
            <MoneyAmount cents={card.balanceOwedCents ?? 0} />
          </dd>
        </div>
      </dl>
      {card.status !== 'closed' ? (
        <section aria-labelledby="pay-card-title" className="card-details__section">
          <h3 id="pay-card-title">Pay card</h3>
          <PayCardForm card={card} />
        </section>
      ) : null}
    </>
  );
}

function DeleteCardDialog({ card, onClose }: { card: Card; onClose: () => void }) {
  const navigate = useNavigate();
  const remove = useDeleteCard();
  const [failure, setFailure] = useState<string | null>(null);
  async function confirm() {
    setFailure(null);
    try {
      await remove.mutateAsync(card.id);
      void navigate('/card');
    } catch (error) {
      setFailure(error instanceof ApiError ? error.message : 'The card was not closed. Please try again.');
    }
  }
  return (
    <ConfirmDialog
      title={`Delete ${cardName(card)}?`}
      description="Closing a card is final: it cannot be used or opened again. Purchases already waiting may still be charged."
      confirmLabel="Delete Card"
      confirmVariant="danger"
      cancelLabel="Keep card"
      busy={remove.isPending}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      {failure ? <p className="field__error">{failure}</p> : null}
    </ConfirmDialog>
  );
}

function ActiveCard({ card }: { card: Card }) {
  const reveal = useCardReveal(card.id);
  const freeze = useFreezeCard();
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const frozen = card.status === 'frozen';
  const shown = reveal.revealed;

  function toggleFreeze() {
    setFailure(null);
    freeze.mutate({ id: card.id, frozen: !frozen }, { onError: (error) => setFailure(error.message) });
  }

  return (
    <div className="card-details">
      <div className="card-details__picture">
        <CardPicture card={card} revealed={shown} showCvv />
        <div className="card-details__reveal">
          {shown ? (
            <>
              <p role="timer" aria-live="off" className="card-details__countdown">
                Hidden again in <span className="tabular">{reveal.secondsLeft}</span> s
              </p>
              <Button variant="secondary" onClick={reveal.hide}>
                <EyeOff aria-hidden="true" size={18} /> Hide now
              </Button>
            </>
          ) : (
            <Button variant="secondary" onClick={() => void reveal.reveal()} loading={reveal.isPending}>
              <Eye aria-hidden="true" size={18} /> Reveal
            </Button>
          )}
        </div>
      </div>

      <section aria-labelledby="card-facts-title" className="card-details__section">
        <h2 id="card-facts-title">Details</h2>
        <dl className="card-facts">
          <div>
            <dt>Type</dt>
            <dd>{cardTypeLabels[card.type]}</dd>
          </div>
          <div>
            <dt>Name on card</dt>
            <dd>{card.nameOnCard}</dd>
          </div>
          <div>
            <dt>Number</dt>
            <dd className="tabular">{shown ? groupedNumber(shown.number) : maskedNumber(card.last4)}</dd>
          </div>
          <div>
            <dt>CVV</dt>
            <dd className="tabular">{shown ? shown.cvv : '•••'}</dd>
          </div>
          <div>
            <dt>Expiry</dt>
            <dd className="tabular">{shown?.expiry ?? card.expiry}</dd>
          </div>
          <div>
            <dt>Status</dt>
            <dd>
              <span className={`card-status card-status--${card.status}`}>{cardStatusLabels[card.status]}</span>
            </dd>
          </div>
        </dl>
        <div className="card-details__actions">
          <Button variant="secondary" onClick={toggleFreeze} loading={freeze.isPending}>
            {frozen ? <Unlock aria-hidden="true" size={18} /> : <Lock aria-hidden="true" size={18} />}
            {frozen ? 'Unfreeze' : 'Freeze'}
          </Button>
          <Link className={buttonClassName({ variant: 'secondary' })} to="/new-card-form">
            New Card
          </Link>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            <Trash2 aria-hidden="true" size={18} /> Delete Card
          </Button>
        </div>
        {frozen ? <p className="card-details__note">While the card is frozen, every purchase with it is declined.</p> : null}
      </section>

      <section aria-labelledby="card-balance-title" className="card-details__section">
        <h2 id="card-balance-title">Balance</h2>
        <CardBalance card={card} />
      </section>

      <section aria-labelledby="card-limits-title" className="card-details__section">
        <h2 id="card-limits-title">Spending limits</h2>
        <CardLimitsForm key={`${card.perTransactionLimitCents}-${card.monthlyLimitCents}`} card={card} />
      </section>

      <section aria-labelledby="card-transactions-title" className="card-details__section card-details__wide">
        <h2 id="card-transactions-title">Recent card transactions</h2>
        <CardTransactions cardId={card.id} />
      </section>

      <section aria-labelledby="card-reveals-title" className="card-details__section card-details__wide">
        <h2 id="card-reveals-title">Card number viewed</h2>
        <CardRevealsList cardId={card.id} />
      </section>

      <StepUpDialog {...reveal.stepUpDialog} />
      <ErrorDialog message={reveal.error ?? failure} onClose={() => (reveal.error ? reveal.clearError() : setFailure(null))} title="That did not work" />
      {confirmDelete ? <DeleteCardDialog card={card} onClose={() => setConfirmDelete(false)} /> : null}
    </div>
  );
}

function CardNotFound() {
  return (
    <EmptyState title="We could not find this card" action={<BackToCards />}>
      <p>It may have been deleted, or the link is not one of your cards.</p>
    </EmptyState>
  );
}

function CardDetails({ id }: { id: string }) {
  const card = useCard(id);
  if (card.isPending) {
    return <LoadingLine className="cards__loading">Loading your card…</LoadingLine>;
  }
  if (card.isError) {
    if (card.error instanceof ApiError && card.error.code === 'not_found') return <CardNotFound />;
    return <LoadFailed title="We could not load this card" query={card} />;
  }
  const { status } = card.data;
  if (status === 'pending_approval') return <ApprovalNotice message={cardMessages.pendingApproval} />;
  if (status === 'closed' || status === 'rejected') {
    return (
      <EmptyState title={status === 'closed' ? 'This card is closed' : 'This card request was declined'} action={<BackToCards />}>
        {card.data.rejectionReason ? <p>{card.data.rejectionReason}</p> : <p>It can no longer be used.</p>}
      </EmptyState>
    );
  }
  return <ActiveCard card={card.data} />;
}

/** /card-details/{id}: one approved card, its number behind a step-up, balance, freeze, limits and transactions. */
export default function CardDetailsPage() {
  const { id = '' } = useParams();
  return (
    <div className="cards">
      <PageMeta title="Card details" description="One of your cards." noIndex />
      <header className="cards__header">
        <BackToCards />
        <h1>Card details</h1>
      </header>
      <CardDetails key={id} id={id} />
    </div>
  );
}
