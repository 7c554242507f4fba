import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { dataClusters, type ConnectRequest } from '@strongroom/contracts/connected-apps.ts';
import { StepUpDialog } from '../../components/step-up/step-up-dialog.tsx';
import { Button } from '../../components/ui/button.tsx';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { PageHeader } from '../../components/ui/page.tsx';
import { useBankIdentity } from '../../lib/bank-identity.ts';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { AppIdentity } from './app-identity.tsx';
import { ChoiceGroup } from './choice-group.tsx';
import { accountChoice, consentFormDefaults, consentFormSchema, type ConsentFormValues } from './consent-schema.ts';
import { DaysField } from './days-field.tsx';
import { ExpiredRequest } from './expired-request.tsx';
import { RefuseDialog } from './refuse-dialog.tsx';
import { useConsentDecision } from './use-consent-decision.ts';

const formFields = ['scopes', 'accountIds', 'days'] as const;

/** The consent itself: who asks, for which data, from which accounts, for how long; Allow or Don't allow. */
export function ConsentForm({ request }: { request: ConnectRequest }) {
  const { name: bankName } = useBankIdentity();
  const schema = useMemo(() => consentFormSchema(request.maxDays), [request.maxDays]);
  const form = useForm<ConsentFormValues>({ resolver: zodResolver(schema), defaultValues: consentFormDefaults(request) });
  const decision = useConsentDecision(request.uid);
  const [confirmingRefusal, setConfirmingRefusal] = useState(false);
  const { problem } = decision;

  useEffect(() => {
    if (problem?.kind === 'fields') showServerFieldErrors(problem.error, formFields, form.setError);
  }, [problem, form.setError]);

  if (problem?.kind === 'gone') return <ExpiredRequest />;
  const clusters = dataClusters.filter((cluster) => request.scopes.includes(cluster.scope));
  const busy = decision.allowing || decision.refusing;

  return (
    <>
      <PageHeader title={`${request.app.name} wants to see your data`} above={<AppIdentity app={request.app} />} />
      <form className="consent" noValidate onSubmit={form.handleSubmit((values) => decision.allow(values))}>
        <ChoiceGroup
          control={form.control}
          name="scopes"
          legend={`What ${request.app.name} wants to see`}
          hint="Untick what you would rather not share."
          choices={clusters.map((cluster) => ({ value: cluster.scope, label: cluster.label, detail: cluster.description }))}
        />
        <ChoiceGroup
          control={form.control}
          name="accountIds"
          legend="From which accounts"
          hint="Only the accounts you tick are shared."
          choices={request.accounts.map(accountChoice)}
        />
        <DaysField form={form} maxDays={request.maxDays} />
        <Notice>
          {bankName} never shares your password with {request.app.name}. You can revoke this access at any time in{' '}
          <Link to="/settings/connected-apps">Settings › Connected apps</Link>.
        </Notice>
        <div className="consent__actions">
          <Button type="submit" loading={decision.allowing} disabled={busy}>
            Allow
          </Button>
          <Button variant="secondary" onClick={() => setConfirmingRefusal(true)} disabled={busy}>
            Don’t allow
          </Button>
        </div>
      </form>
      <RefuseDialog
        open={confirmingRefusal}
        appName={request.app.name}
        refusing={decision.refusing}
        onConfirm={decision.refuse}
        onCancel={() => setConfirmingRefusal(false)}
      />
      <StepUpDialog {...decision.stepUpDialog} />
      <ErrorDialog
        message={problem?.kind === 'message' ? problem.message : null}
        onClose={() => {
          decision.clearProblem();
          setConfirmingRefusal(false);
        }}
        title="That did not work"
      />
    </>
  );
}
