import { Link } from 'react-router';
import { ArrowDownToLine, Trash2 } from 'lucide-react';
import type { FundingSource } from '@strongroom/contracts/funding-sources.ts';
import { Button, buttonClassName } from '../../../components/ui/button.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { formatDate } from '../../../lib/dates.ts';
import { fundingSourceAccount, fundingSourceStatusTones, fundingSourceStatusWords } from './funding-source-words.ts';
import { VerifyFundingSourceForm } from './verify-funding-source-form.tsx';

export interface FundingSourceItemProps {
  source: FundingSource;
  /** The page has just announced this link and said where its two deposits are found. */
  announced: boolean;
  onRemove: (source: FundingSource) => void;
}

/** One account at another bank: whose, which, its status in word and colour, and what can be done with it now. */
export function FundingSourceItem({ source, announced, onRemove }: FundingSourceItemProps) {
  const account = fundingSourceAccount(source);
  // Buttons of every entry are told apart by screen readers: 'Remove Dana Demo, Checking •••• 0055'.
  const spoken = `${source.accountName}, ${account}`;
  return (
    <Card as="li" className="funding-source">
      <div className="funding-source__header">
        <div className="funding-source__details">
          <h3 className="funding-source__name">{source.accountName}</h3>
          <p className="funding-source__account tabular">{account}</p>
          <p className="funding-source__bank">
            Routing number <span className="tabular">{source.routeNumber}</span>
            {source.bankName ? ` · ${source.bankName}` : null}
          </p>
        </div>
        <Badge tone={fundingSourceStatusTones[source.status]} dot className={`funding-source__status funding-source__status--${source.status}`}>
          {fundingSourceStatusWords[source.status]}
        </Badge>
      </div>
      {source.status === 'pending_verification' ? <VerifyFundingSourceForm source={source} sayWhereToFind={!announced} /> : null}
      {source.status === 'failed' ? (
        <p className="funding-source__text">
          The amounts were wrong three times, so this account could not be verified. Remove it and link it again to get two new deposits.
        </p>
      ) : null}
      {source.status === 'verified' && source.verifiedAt ? (
        <p className="funding-source__text">Verified on {formatDate(source.verifiedAt)}. You can deposit from it.</p>
      ) : null}
      <div className="funding-source__actions">
        {source.status === 'verified' ? (
          <Link
            to={`/deposit?source=${encodeURIComponent(source.id)}`}
            className={buttonClassName({ variant: 'secondary' })}
            aria-label={`Deposit from ${spoken}`}
          >
            <ArrowDownToLine aria-hidden="true" size={18} />
            Deposit
          </Link>
        ) : null}
        <Button variant="ghost" className="funding-source__remove" onClick={() => onRemove(source)} aria-label={`Remove ${spoken}`}>
          <Trash2 aria-hidden="true" size={18} />
          Remove
        </Button>
      </div>
    </Card>
  );
}
