import { useState } from 'react';
import { Link } from 'react-router';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { Button, buttonClassName } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page, PageHeader } from '../../components/ui/page.tsx';
import { billCategoryTiles, type BillCategoryTile } from './bill-categories.ts';
import { useBillPayAccess } from './use-bill-pay-access.ts';
import './billpay-page.css';

/**
 * What a tile says when it cannot open its category yet: while the customer's accounts load, if they
 * cannot be loaded, or (the seed's rule) before the identity is approved and an account is open.
 */
function BillAnswer({ tile }: { tile: BillCategoryTile }) {
  const access = useBillPayAccess();
  if (access.state === 'loading') return <LoadingLine>Checking your accounts…</LoadingLine>;
  if (access.state === 'failed') return <p role="alert">{access.query.error?.message ?? 'We could not load your accounts.'}</p>;
  if (access.state === 'not_approved') {
    return (
      <div className="billpay__answer">
        <p className="billpay__message">{resultMessages.billPayNotApproved}</p>
        <p>We open your accounts as soon as your identity has been checked; then you can pay bills from them.</p>
      </div>
    );
  }
  return (
    <p>
      <Link to={`/billpay/${tile.slug}`} className={buttonClassName({ variant: 'primary' })}>
        Continue to {tile.name}
      </Link>
    </p>
  );
}

function TileContent({ tile }: { tile: BillCategoryTile }) {
  return (
    <>
      <span className="billpay__tile-icon">
        <tile.Icon aria-hidden="true" size={26} />
      </span>
      {tile.name}
    </>
  );
}

/**
 * /billpay: the twelve bill categories. Once the customer can pay (identity approved, an account
 * open) each tile leads to its category's billers; until then it opens a dialog that says why not.
 */
export default function BillPayPage() {
  const access = useBillPayAccess();
  const [chosen, setChosen] = useState<BillCategoryTile | null>(null);
  return (
    <Page width="wide" className="billpay">
      <PageMeta title="Bill Pay" description="Pay your bills." noIndex />
      <PageHeader title="Bill Pay" lead="Choose what you would like to pay." />
      <ul className="tile-grid billpay__tiles">
        {billCategoryTiles.map((tile) => (
          <li key={tile.slug}>
            {access.state === 'approved' ? (
              <Link to={`/billpay/${tile.slug}`} className="billpay__tile">
                <TileContent tile={tile} />
              </Link>
            ) : (
              <button type="button" className="billpay__tile" onClick={() => setChosen(tile)}>
                <TileContent tile={tile} />
              </button>
            )}
          </li>
        ))}
      </ul>
      <Dialog
        open={chosen !== null}
        onClose={() => setChosen(null)}
        size="sm"
        title={chosen?.name ?? ''}
        footer={
          <Button variant="secondary" onClick={() => setChosen(null)}>
            Close
          </Button>
        }
      >
        {chosen !== null ? <BillAnswer tile={chosen} /> : null}
      </Dialog>
    </Page>
  );
}
