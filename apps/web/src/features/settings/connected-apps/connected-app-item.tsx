import { dataClusters, type ConnectedAppConsent } from '@strongroom/contracts/connected-apps.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { FactList, FactRow } from '../../../components/ui/fact-list.tsx';
import { formatDate, formatDateTime, machineDateTime } from '../../../lib/dates.ts';
import { AppLogo } from './app-logo.tsx';

/** The clusters' labels ("Transactions") in the contract's order. */
function clusterLabels(scopes: ConnectedAppConsent['scopes']): string[] {
  return dataClusters.filter((cluster) => scopes.includes(cluster.scope)).map((cluster) => cluster.label);
}

function When({ iso, withTime = false }: { iso: string; withTime?: boolean }) {
  return <time dateTime={machineDateTime(iso)}>{withTime ? formatDateTime(iso) : formatDate(iso)}</time>;
}

/** One connected app: who, what it can see, which accounts, since and until when, when last used, and the way to end its access. */
export function ConnectedAppItem({ consent, onRevoke }: { consent: ConnectedAppConsent; onRevoke: () => void }) {
  const titleId = `connected-app-${consent.consentId}`;
  return (
    <Card as="li" className="connected-app" aria-labelledby={titleId}>
      <div className="connected-app__header">
        <AppLogo name={consent.app.name} logoUrl={consent.app.logoUrl} />
        <h3 id={titleId} className="connected-app__name">
          {consent.app.name}
        </h3>
      </div>
      <FactList className="connected-app__facts">
        <FactRow term="Can see">
          <ul className="connected-app__values">
            {clusterLabels(consent.scopes).map((label) => (
              <li key={label}>{label}</li>
            ))}
          </ul>
        </FactRow>
        <FactRow term="Accounts">
          <ul className="connected-app__values">
            {consent.accounts.map((account) => (
              <li key={account.id}>{account.maskedNumber}</li>
            ))}
          </ul>
        </FactRow>
        <FactRow term="Connected since">
          <When iso={consent.createdAt} />
        </FactRow>
        <FactRow term="Access ends">
          <When iso={consent.expiresAt} />
        </FactRow>
        <FactRow term="Last used">{consent.lastUsedAt ? <When iso={consent.lastUsedAt} withTime /> : 'Never used'}</FactRow>
      </FactList>
      <div className="connected-app__actions">
        <Button variant="secondary" size="sm" onClick={onRevoke} aria-label={`Revoke access for ${consent.app.name}`}>
          Revoke access
        </Button>
      </div>
    </Card>
  );
}
