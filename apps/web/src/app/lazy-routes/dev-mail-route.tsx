import DevMailPage from '../../features/dev/dev-mail-page.tsx';
import { QueryProvider } from '../query-provider.tsx';

/** /dev/mail, sandbox only, loaded on demand. */
export default function DevMailRoute() {
  return (
    <QueryProvider>
      <DevMailPage />
    </QueryProvider>
  );
}
