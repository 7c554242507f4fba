import type { ConnectRequest } from '@strongroom/contracts/connected-apps.ts';
import { initialsOf, isOwnOrigin } from '../../lib/connected-app-identity.ts';

/** Who asks: the app's logo (or its initials) and how to reach it; the page's heading names it. */
export function AppIdentity({ app }: { app: ConnectRequest['app'] }) {
  return (
    <div className="consent__app">
      {app.logoUrl && isOwnOrigin(app.logoUrl) ? (
        <img className="consent__logo" src={app.logoUrl} alt="" width={56} height={56} />
      ) : (
        <span className="consent__logo consent__logo--initials" aria-hidden="true">
          {initialsOf(app.name)}
        </span>
      )}
      <p className="consent__contact">
        Contact: <a href={`mailto:${app.contactEmail}`}>{app.contactEmail}</a>
      </p>
    </div>
  );
}
