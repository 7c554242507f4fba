import { useState } from 'react';
import { Link } from 'react-router';
import { BedDouble, Bus, Clapperboard, Droplet, Flame, Plane, ReceiptText, TrainFront, Tv, UtensilsCrossed, Wifi, Zap, type LucideIcon } from 'lucide-react';
import { businessConstants } from '@strongroom/contracts/constants.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { useMe } from '../../lib/api/get-me.ts';
import { useAccounts } from '../../lib/api/get-accounts.ts';
import './billpay-page.css';

/** The seed's twelve bill-pay tiles, in its order. */
const billCategories: readonly { name: string; Icon: LucideIcon }[] = [
  { name: 'Electricity', Icon: Zap },
  { name: 'Water Bill', Icon: Droplet },
  { name: 'Gas Bill', Icon: Flame },
  { name: 'Food Order', Icon: UtensilsCrossed },
  { name: 'Airfare', Icon: Plane },
  { name: 'Cable', Icon: Tv },
  { name: 'Internet', Icon: Wifi },
  { name: 'Hotel Booking', Icon: BedDouble },
  { name: 'Train tickets', Icon: TrainFront },
  { name: 'Bus Ticket', Icon: Bus },
  { name: 'Movie Ticket', Icon: Clapperboard },
  { name: 'Other Bills', Icon: ReceiptText },
];

if (billCategories.length !== businessConstants.billPayCategoryCount) {
  throw new Error(`bill pay shows ${billCategories.length} categories, the product has ${businessConstants.billPayCategoryCount}`);
}

/**
 * What choosing a bill says. Bills are paid through customer care for now; before the accounts are
 * open (identity not approved yet) there is nothing to pay from, which the seed says first.
 */
function BillAnswer() {
  const me = useMe();
  const accounts = useAccounts();
  const verified = me.data?.user.accountVerified ?? false;

  if (verified && accounts.isPending) {
    return <LoadingLine>Checking your accounts…</LoadingLine>;
  }
  if (verified && accounts.isError) return <p role="alert">{accounts.error.message}</p>;

  const approved = verified && (accounts.data ?? []).some((account) => account.active);
  if (!approved) {
    return (
      <div className="billpay__answer">
        <p className="billpay__message">{resultMessages.billPayNotApproved}</p>
        <p>We open your accounts as soon as your identity has been checked; then you can pay bills from them.</p>
      </div>
    );
  }
  return (
    <div className="billpay__answer">
      <p className="billpay__message">{resultMessages.billPayContactSupport}</p>
      <p>
        <Link to="/contact" className={buttonClassName({ variant: 'primary' })}>
          Contact customer care
        </Link>
      </p>
    </div>
  );
}

/** /billpay: the twelve bill categories; each opens a dialog that says how to go on. */
export default function BillPayPage() {
  const [chosen, setChosen] = useState<string | null>(null);
  return (
    <Page width="wide" className="billpay">
      <PageMeta title="Bill Pay" description="Pay your bills." noIndex />
      <PageHeader title="Bill Pay" lead="Choose what you would like to pay." />
      <ul className="tile-grid billpay__tiles">
        {billCategories.map(({ name, Icon }) => (
          <li key={name}>
            <button type="button" className="billpay__tile" onClick={() => setChosen(name)}>
              <span className="billpay__tile-icon">
                <Icon aria-hidden="true" size={26} />
              </span>
              {name}
            </button>
          </li>
        ))}
      </ul>
      <Dialog
        open={chosen !== null}
        onClose={() => setChosen(null)}
        size="sm"
        title={chosen ?? ''}
        footer={
          <Button variant="secondary" onClick={() => setChosen(null)}>
            Close
          </Button>
        }
      >
        {chosen !== null ? <BillAnswer /> : null}
      </Dialog>
    </Page>
  );
}
