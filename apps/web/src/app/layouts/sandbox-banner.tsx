import { FlaskConical } from 'lucide-react';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import './sandbox-banner.css';

/** On every page of a sandbox bank, so that a demo can never be mistaken for a real bank. */
export function SandboxBanner() {
  const { mode } = useBankIdentity();
  if (mode !== 'sandbox') return null;
  return (
    // A landmark of its own, so that screen-reader users find it as easily as the eye does.
    <aside className="sandbox-banner" aria-label="Sandbox notice">
      <FlaskConical aria-hidden="true" size={16} />
      <p>{resultMessages.sandboxBanner}</p>
    </aside>
  );
}
