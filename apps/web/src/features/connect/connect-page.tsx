import { useParams } from 'react-router';
import { PageMeta } from '../../components/page-meta.tsx';
import { LoadFailed } from '../../components/ui/load-failed.tsx';
import { LoadingLine } from '../../components/ui/loading-line.tsx';
import { Page } from '../../components/ui/page.tsx';
import { isApiError } from '../../lib/api-client.ts';
import { useConnectRequest } from './api/connect-requests.ts';
import { ConsentForm } from './consent-form.tsx';
import { ExpiredRequest } from './expired-request.tsx';
import './connect.css';

/**
 * /connect/:uid: an app asks, through the bank's authorization server, to read some of the
 * customer's data (docs/connected-apps.md, "Consent"). Behind the bank's own sign-in: a signed-out
 * visitor signs in here and stays on this page.
 */
export default function ConnectPage() {
  const { uid = '' } = useParams();
  const request = useConnectRequest(uid);
  return (
    <Page className="connect-page">
      <PageMeta title="Connect an app" description="Choose what an app may see of your accounts." noIndex />
      {request.isPending ? <LoadingLine>Loading the app’s request…</LoadingLine> : null}
      {request.isError && isApiError(request.error) && request.error.status === 404 ? <ExpiredRequest /> : null}
      {request.isError && !(isApiError(request.error) && request.error.status === 404) ? (
        <LoadFailed title="We could not load this request" query={request} headingLevel={1} />
      ) : null}
      {request.data ? <ConsentForm request={request.data} /> : null}
    </Page>
  );
}
