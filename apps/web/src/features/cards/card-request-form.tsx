import { useState, type ChangeEvent } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { Clock } from 'lucide-react';
import {
  cardNetworkLabels,
  cardNetworks,
  cardTypeLabels,
  cardTypes,
  createCardRequestSchema,
  nameAsCardPrintsIt,
  nameOnCardMaxLength,
  type Card,
} from '@strongroom/contracts/cards.ts';
import type { Account } from '@strongroom/contracts/accounts.ts';
import { NoAccountNotice } from '../../components/no-account-notice.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ActionDialog } from '../../components/forms/action-dialog.tsx';
import { EmptyState } from '../../components/ui/empty-state.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { SelectField } from '../../components/ui/select-field.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { newIdempotencyKey } from '../../lib/idempotency-key.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { useCreateCard } from './api/create-card.ts';
import { cardRequestBlock, refusalMessage } from './card-request-rules.ts';

type CardRequestValues = z.input<typeof createCardRequestSchema>;
type CardRequestChecked = z.output<typeof createCardRequestSchema>;

const typeOptions = cardTypes.map((type) => ({ value: type, label: cardTypeLabels[type] }));
const networkOptions = cardNetworks.map((network) => ({ value: network, label: cardNetworkLabels[network] }));

/** The approval notice that replaces the form while a request waits (seed: 'up to 3 days'). */
export function ApprovalNotice({ message, headingLevel = 2 }: { message: string; headingLevel?: 2 | 3 }) {
  return (
    <EmptyState icon={<Clock aria-hidden="true" size={28} />} title="Your card is awaiting approval" headingLevel={headingLevel}>
      <p>{message}</p>
      <p>This page shows your card by itself as soon as it is approved.</p>
    </EmptyState>
  );
}

export interface CardRequestFormProps {
  cards: readonly Card[];
  accounts: readonly Account[];
  /** "First Last" of the signed-in customer: what the name on the card starts as. */
  defaultName: string;
  onRequested?: (card: Card) => void;
}

/**
 * The card request (seed: /card-form, /new-card-form): type, network and name on card, required.
 * The name is what the card prints: capitals as it is typed, letters, spaces and hyphens only; the
 * request is reviewed in a dialog before it is sent (decision 060).
 * A request awaiting approval replaces the form with the approval notice, and so does the reason the
 * customer has no account yet; less than $500 available on savings shows the seed's message and
 * sends nothing.
 */
export function CardRequestForm({ cards, accounts, defaultName, onRequested }: CardRequestFormProps) {
  const create = useCreateCard();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [review, setReview] = useState<CardRequestChecked | null>(null);
  // One key per request: pressing again after no answer reaches the server as the same request.
  const [idempotencyKey, setIdempotencyKey] = useState(newIdempotencyKey);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    formState: { errors },
  } = useForm<CardRequestValues, unknown, CardRequestChecked>({
    resolver: zodResolver(createCardRequestSchema),
    mode: 'onTouched',
    defaultValues: { cardType: 'debit', cardNetwork: 'visa', nameOnCard: nameAsCardPrintsIt(defaultName) },
  });

  const block = cardRequestBlock(cards, accounts);
  if (block?.kind === 'pending') return <ApprovalNotice message={block.message} />;
  if (block?.kind === 'no_account') return <NoAccountNotice />;

  const onSubmit = handleSubmit((values) => {
    setRefusal(null);
    setReview(values);
  });

  async function send(values: CardRequestChecked) {
    try {
      const card = await create.mutateAsync({ body: values, idempotencyKey });
      setIdempotencyKey(newIdempotencyKey());
      setReview(null);
      onRequested?.(card);
    } catch (error) {
      setReview(null);
      if (showServerFieldErrors(error, ['cardType', 'cardNetwork', 'nameOnCard'], setError)) return;
      setRefusal(refusalMessage(error));
    }
  }

  const message = refusal ?? (block?.kind === 'refused' ? block.message : null);
  return (
    <>
      <form className="card-form" noValidate onSubmit={onSubmit} aria-label="Request a card">
        {message ? (
          <Notice tone="error" role="alert">
            <p>{message}</p>
          </Notice>
        ) : null}
        <SelectField label="Card type" options={typeOptions} required error={errors.cardType?.message} {...register('cardType')} />
        <SelectField label="Card network" options={networkOptions} required error={errors.cardNetwork?.message} {...register('cardNetwork')} />
        <TextField
          label="Name on card"
          hint="As the card prints it: letters, spaces and hyphens, in capitals."
          autoComplete="cc-name"
          autoCapitalize="characters"
          required
          maxLength={nameOnCardMaxLength}
          error={errors.nameOnCard?.message}
          {...register('nameOnCard', {
            onChange: (event: ChangeEvent<HTMLInputElement>) => setValue('nameOnCard', event.target.value.toUpperCase()),
          })}
        />
        <p className="card-form__note">Our staff approve each request within 3 days. Every card of this bank is a demo card with a test number.</p>
        <div className="card-form__actions">
          <Button type="submit" size="lg" loading={create.isPending} disabled={block !== null}>
            Request card
          </Button>
        </div>
      </form>
      <CardRequestReview
        review={review}
        sending={create.isPending}
        onModify={() => setReview(null)}
        onSend={() => {
          if (review) void send(review);
        }}
      />
    </>
  );
}

interface CardRequestReviewProps {
  review: CardRequestChecked | null;
  sending: boolean;
  onModify: () => void;
  onSend: () => void;
}

/** The request as it will be sent, to check before it goes (decision 060). */
function CardRequestReview({ review, sending, onModify, onSend }: CardRequestReviewProps) {
  return (
    <ActionDialog
      open={review !== null}
      onCancel={onModify}
      cancelLabel="Modify"
      busy={sending}
      size="md"
      title="Check your card request"
      description={<p>Our staff approve it within 3 days; the card prints the name exactly as shown.</p>}
      action={
        <Button onClick={onSend} loading={sending} data-autofocus>
          Send request
        </Button>
      }
    >
      {review ? (
        <dl className="card-review">
          <div>
            <dt>Card type</dt>
            <dd>{cardTypeLabels[review.cardType]}</dd>
          </div>
          <div>
            <dt>Card network</dt>
            <dd>{cardNetworkLabels[review.cardNetwork]}</dd>
          </div>
          <div>
            <dt>Name on card</dt>
            <dd>{review.nameOnCard}</dd>
          </div>
        </dl>
      ) : null}
    </ActionDialog>
  );
}
