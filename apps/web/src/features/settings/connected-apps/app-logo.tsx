import { useState } from 'react';
import { initialsOf, isOwnOrigin } from '../../../lib/connected-app-identity.ts';

/** An app's logo, or its initials on a round field: decorative, since the app's name is always beside it. */
export function AppLogo({ name, logoUrl }: { name: string; logoUrl: string | null }) {
  const [failed, setFailed] = useState(false);
  if (logoUrl && !failed && isOwnOrigin(logoUrl)) {
    return <img className="connected-app__logo" src={logoUrl} alt="" width={40} height={40} onError={() => setFailed(true)} />;
  }
  return (
    <span className="connected-app__logo connected-app__logo--initials" aria-hidden="true">
      {initialsOf(name)}
    </span>
  );
}
