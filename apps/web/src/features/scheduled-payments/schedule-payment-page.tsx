import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { ScheduledPayment } from '@strongroom/contracts/scheduled-payments.ts';
import { PageMeta } from '../../components/page-meta.tsx';
import { BackLink, Page, PageHeader } from '../../components/ui/page.tsx';
import { createScheduledPayment } from './api/scheduled-payments.ts';
import { ScheduleConfirmation } from './schedule-confirmation.tsx';
import { defaultsFromQuery } from './schedule-defaults.ts';
import { ScheduleForm } from './schedule-form.tsx';
import { WithScheduleInputs } from './schedule-inputs.tsx';
import '../../components/payment/payment.css';
import './scheduled-payments.css';

/** /payments/scheduled/new: a payment once on a date or repeating, reviewed, then made (with a code when it needs one). */
export default function SchedulePaymentPage() {
  const [search] = useSearchParams();
  const [scheduled, setScheduled] = useState<ScheduledPayment | null>(null);
  // A new form after "Schedule another payment": nothing of the last one is left in it.
  const [formKey, setFormKey] = useState(0);
  return (
    <Page>
      <PageMeta title="Schedule a payment" description="Pay a bill or someone later, or repeatedly." noIndex />
      <BackLink to="/payments/scheduled">Scheduled payments</BackLink>
      <PageHeader title="Schedule a payment" lead="Pay once on a date, or repeat it every week, two weeks or month. Payments go on business days." />
      {scheduled ? (
        <ScheduleConfirmation
          schedule={scheduled}
          title="Payment scheduled"
          onAnother={() => {
            setScheduled(null);
            setFormKey((key) => key + 1);
          }}
        />
      ) : (
        <WithScheduleInputs>
          {({ accounts, billPayees, today }) => {
            const defaults = defaultsFromQuery(search, accounts[0]?.id ?? '', today.earliestPaymentDate);
            return (
              <ScheduleForm
                key={formKey}
                accounts={accounts}
                billPayees={billPayees}
                today={today}
                defaults={defaults.form}
                recipientDefaults={defaults.recipient}
                send={createScheduledPayment}
                errorTitle="The payment was not scheduled"
                onDone={setScheduled}
              />
            );
          }}
        </WithScheduleInputs>
      )}
    </Page>
  );
}
