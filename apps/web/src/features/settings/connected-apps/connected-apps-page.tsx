import { useState } from 'react';
import { Plug } from 'lucide-react';
import type { ConnectedAppConsent } from '@strongroom/contracts/connected-apps.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../../components/ui/loading-line.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { isApiError } from '../../../lib/api-client.ts';
import { SettingsPageLayout } from '../settings-page-layout.tsx';
import { useConnectedApps, useRevokeConnectedApp } from './api/connected-apps.ts';
import { ConnectedAppItem } from './connected-app-item.tsx';
import { RevokeAppDialog } from './revoke-app-dialog.tsx';
import './connected-apps.css';

export const noConnectedAppsText = 'No apps are connected. When an app asks to see your data, you choose what it sees here.';

/** The list in whichever state its query is: loading, failed, empty, or the apps. */
function ConnectedAppList({ apps, onRevoke }: { apps: ReturnType<typeof useConnectedApps>; onRevoke: (consent: ConnectedAppConsent) => void }) {
  if (apps.isPending) return <LoadingLine>Loading your connected apps…</LoadingLine>;
  if (apps.isError) return <LoadFailed title="We could not load your connected apps" query={apps} headingLevel={3} />;
  if (apps.data.items.length === 0) {
    return (
      <EmptyState icon={<Plug aria-hidden="true" size={28} />} title="No connected apps" headingLevel={3}>
        <p>{noConnectedAppsText}</p>
      </EmptyState>
    );
  }
  return (
    <ul className="connected-apps__list" aria-label="Connected apps">
      {apps.data.items.map((consent) => (
        <ConnectedAppItem key={consent.consentId} consent={consent} onRevoke={() => onRevoke(consent)} />
      ))}
    </ul>
  );
}

/**
 * /settings/connected-apps, 'Connected apps' (issue 38; docs/connected-apps.md): each app the
 * customer let see their data, what it sees and until when, and "Revoke access", which ends it at
 * once (the app's next request fails). The outcome is announced in the toast region (aria-live);
 * focus goes to the page's heading when the dialog closes, since the button that had it is gone.
 */
export default function ConnectedAppsPage() {
  const apps = useConnectedApps();
  const revoke = useRevokeConnectedApp();
  const toast = useToast();
  const [pending, setPending] = useState<ConnectedAppConsent | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  function confirm() {
    if (!pending) return;
    const name = pending.app.name;
    revoke.mutate(pending.consentId, {
      onSuccess: () => toast.show(`${name} can no longer see your data`),
      onError: (error) => {
        // Ended meanwhile (expired, or revoked in another window): what the customer wanted is so.
        if (isApiError(error) && error.status === 404) toast.show(`${name} could no longer see your data: its access had already ended`, 'info');
        else setProblem(error.message);
      },
      onSettled: () => setPending(null),
    });
  }

  return (
    <SettingsPageLayout
      title="Connected apps"
      description="The apps you let see your data."
      lead="Apps you let see your data, what each can see and until when. Revoke an app's access at any time: it ends at once."
    >
      <section className="connected-apps" aria-labelledby="connected-apps-heading">
        <h2 id="connected-apps-heading" className="connected-apps__heading">
          Apps that can see your data
        </h2>
        <ConnectedAppList apps={apps} onRevoke={setPending} />
      </section>
      <RevokeAppDialog consent={pending} busy={revoke.isPending} onConfirm={confirm} onCancel={() => setPending(null)} />
      <ErrorDialog title="Access was not revoked" message={problem} onClose={() => setProblem(null)} />
    </SettingsPageLayout>
  );
}
