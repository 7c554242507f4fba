import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ArrowLeft, ArrowLeftRight, CalendarClock, CreditCard, Landmark } from 'lucide-react';
import { PageMeta } from '../../components/page-meta.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { OtherBankTransferForm } from './other-bank-transfer-form.tsx';
import { OwnTransferForm } from './own-transfer-form.tsx';
import { SourceAccounts } from '../../components/payment/source-accounts.tsx';
import '../../components/payment/payment.css';
import './transfer-page.css';

type TransferChoice = 'own' | 'other';

/** The choice lives in the address (?to=own), so Back returns to the first question. */
function choiceOf(value: string | null): TransferChoice | null {
  return value === 'own' || value === 'other' ? value : null;
}

const choiceTitles: Record<TransferChoice, string> = {
  own: 'Transfer within my accounts',
  other: 'Transfer to other bank',
};

/**
 * /transfer and /send-account (the same screen, seed section 2): first the choice between
 * 'Transfer within my accounts' and 'Transfer to other bank', then that form.
 */
export default function TransferPage() {
  const [searchParams] = useSearchParams();
  const choice = choiceOf(searchParams.get('to'));
  const headingRef = useRef<HTMLHeadingElement>(null);
  const shownChoice = useRef(choice);

  // The link just chosen is gone from the page: focus goes to the heading that names the new step,
  // where a keyboard or screen-reader user reads on (not to the top of the document).
  useEffect(() => {
    if (shownChoice.current === choice) return;
    shownChoice.current = choice;
    headingRef.current?.focus();
  }, [choice]);

  return (
    <div className="money-page">
      <PageMeta title="Transfer" description="Send money between your accounts or to someone else." noIndex />
      <header className="money-page__header">
        <h1 ref={headingRef} tabIndex={-1}>
          {choice ? choiceTitles[choice] : 'Transfer'}
        </h1>
        <p>{choice ? 'Fill in the details; you will see them again before anything is sent.' : 'Where is the money going?'}</p>
      </header>
      {choice ? (
        <>
          <Link to={{ search: '' }} className="transfer-back">
            <ArrowLeft aria-hidden="true" size={18} />
            Choose another kind of transfer
          </Link>
          <SourceAccounts>
            {(accounts) =>
              choice === 'other' ? (
                <OtherBankTransferForm accounts={accounts} />
              ) : accounts.length < 2 ? (
                <Notice>
                  <p>You need two accounts to move money between them, and you have one.</p>
                </Notice>
              ) : (
                <OwnTransferForm accounts={accounts} />
              )
            }
          </SourceAccounts>
        </>
      ) : (
        <ul className="transfer-choices">
          <li>
            <Link to={{ search: '?to=own' }} className="transfer-choice">
              <ArrowLeftRight aria-hidden="true" size={24} />
              <span className="transfer-choice__title">{choiceTitles.own}</span>
              <span className="transfer-choice__text">Between your checking and savings, at once.</span>
            </Link>
          </li>
          <li>
            <Link to={{ search: '?to=other' }} className="transfer-choice">
              <Landmark aria-hidden="true" size={24} />
              <span className="transfer-choice__title">{choiceTitles.other}</span>
              <span className="transfer-choice__text">To someone at this bank or another, or to a favorite.</span>
            </Link>
          </li>
          <li>
            <Link to="/send-card" className="transfer-choice">
              <CreditCard aria-hidden="true" size={24} />
              <span className="transfer-choice__title">Send to a card</span>
              <span className="transfer-choice__text">To a debit or credit card by its number.</span>
            </Link>
          </li>
          <li>
            <Link to="/payments/scheduled/new" className="transfer-choice">
              <CalendarClock aria-hidden="true" size={24} />
              <span className="transfer-choice__title">Schedule or repeat a transfer</span>
              <span className="transfer-choice__text">On a date, or every week, two weeks or month.</span>
            </Link>
          </li>
        </ul>
      )}
    </div>
  );
}
