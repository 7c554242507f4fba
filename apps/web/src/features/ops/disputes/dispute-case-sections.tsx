import { disputeReasonLabels, type StaffDisputeDetail } from '@strongroom/contracts/disputes.ts';
import { Badge } from '../../../components/ui/badge.tsx';
import { FactList, FactRow } from '../../../components/ui/fact-list.tsx';
import { MoneyAmount } from '../../../components/ui/money-amount.tsx';
import { Table } from '../../../components/ui/table.tsx';
import { formatDateTime, machineDateTime } from '../../../lib/dates.ts';
import { statusInWords } from '../status-words.ts';
import { evidenceUrl, letterUrl } from './disputes-api.ts';
import { eventWords, formatBankDate, letterWords, paymentKindInWords } from './dispute-words.ts';

type Case = StaffDisputeDetail['dispute'];

function BankDate({ day }: { day: string }) {
  return <time dateTime={day}>{formatBankDate(day)}</time>;
}

/** The disputed transaction and what the customer said about it. */
export function DisputeTransaction({ dispute }: { dispute: Case }) {
  const { transaction } = dispute;
  return (
    <section aria-labelledby="dispute-transaction">
      <h2 id="dispute-transaction">The transaction</h2>
      <FactList>
        <FactRow term="Description">{transaction.description}</FactRow>
        <FactRow term="Kind">{paymentKindInWords(transaction.kind)}</FactRow>
        <FactRow term="Date">
          <BankDate day={transaction.date} />
        </FactRow>
        <FactRow term="Amount">
          <MoneyAmount cents={transaction.amountCents} />
        </FactRow>
        <FactRow term="Disputed">
          <MoneyAmount cents={dispute.amountCents} />
        </FactRow>
        <FactRow term="What went wrong">{disputeReasonLabels[dispute.reason]}</FactRow>
        <FactRow term="In the customer's words">{dispute.description}</FactRow>
        <FactRow term="Customer">
          {dispute.customer.name} ({dispute.customer.email})
        </FactRow>
        {dispute.cardReplaced ? <FactRow term="Card">Frozen and replaced when reported</FactRow> : null}
      </FactList>
    </section>
  );
}

/** Regulation E's clock for this case, and the money given so far. */
export function DisputeDeadlines({ dispute }: { dispute: Case }) {
  return (
    <section aria-labelledby="dispute-deadlines">
      <h2 id="dispute-deadlines">Deadlines</h2>
      <FactList>
        <FactRow term="Received">
          <BankDate day={dispute.receivedOn} />
        </FactRow>
        <FactRow term="Provisional credit by">
          <BankDate day={dispute.provisionalCreditBy} />
        </FactRow>
        <FactRow term="Resolve by">
          <BankDate day={dispute.resolveBy} />
        </FactRow>
        <FactRow term="Next deadline">
          <BankDate day={dispute.nextDeadline} />{' '}
          {dispute.overdue ? (
            <Badge tone="danger" strong>
              Overdue
            </Badge>
          ) : null}
        </FactRow>
        <FactRow term="Provisional credit given">
          <MoneyAmount cents={dispute.provisionalCreditCents} />
        </FactRow>
        {dispute.reversalOn ? (
          <FactRow term="Credit taken back on">
            <BankDate day={dispute.reversalOn} />
          </FactRow>
        ) : null}
      </FactList>
    </section>
  );
}

/** The customer's other payments with the same merchant or payee, newest first: a pattern staff weigh. */
export function SameCounterparty({ payments }: { payments: StaffDisputeDetail['sameCounterparty'] }) {
  return (
    <section aria-labelledby="dispute-same-payee">
      <h2 id="dispute-same-payee">Other payments to this payee</h2>
      <Table
        caption="The customer's other payments to this payee"
        captionHidden
        columns={[
          { key: 'date', header: 'Date', cell: (row) => <time dateTime={machineDateTime(row.createdAt)}>{formatDateTime(row.createdAt)}</time> },
          { key: 'kind', header: 'Kind', cell: (row) => paymentKindInWords(row.kind) },
          { key: 'status', header: 'Status', cell: (row) => statusInWords(row.status) },
          { key: 'amount', header: 'Amount', numeric: true, cell: (row) => <MoneyAmount cents={row.amountCents} /> },
        ]}
        rows={payments}
        rowKey={(row) => row.id}
        empty="No other payments to this payee."
      />
    </section>
  );
}

/** The customer's evidence and the letters sent, each opening the file; opening evidence is audited. */
export function DisputeFiles({ detail }: { detail: StaffDisputeDetail }) {
  const { dispute, evidence, letters } = detail;
  return (
    <section aria-labelledby="dispute-files">
      <h2 id="dispute-files">Evidence and letters</h2>
      <h3>Evidence</h3>
      {evidence.length === 0 ? <p>The customer sent no evidence.</p> : null}
      <ul className="dispute-case__files">
        {evidence.map((file) => (
          <li key={file.id}>
            <a href={evidenceUrl(dispute.id, file.id)} target="_blank" rel="noopener noreferrer">
              {file.fileName}
            </a>{' '}
            ({Math.max(1, Math.round(file.byteSize / 1024))} KB, added {formatDateTime(file.createdAt)}) · opening it is recorded in the audit log
          </li>
        ))}
      </ul>
      <h3>Letters</h3>
      {letters.length === 0 ? <p>No letters sent yet.</p> : null}
      <ul className="dispute-case__files">
        {letters.map((letter) => (
          <li key={letter.id}>
            <a href={letterUrl(dispute.id, letter.id)} target="_blank" rel="noopener noreferrer">
              {letterWords[letter.kind]} (PDF)
            </a>{' '}
            sent {formatDateTime(letter.createdAt)}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What happened to the case, with who did it and why; lines the customer does not see are marked. */
export function DisputeTimeline({ events }: { events: StaffDisputeDetail['events'] }) {
  return (
    <section aria-labelledby="dispute-timeline">
      <h2 id="dispute-timeline">Timeline</h2>
      <ol className="dispute-timeline">
        {events.map((event, index) => (
          <li key={`${event.at}-${index}`}>
            <strong>{eventWords[event.kind]}</strong> · <time dateTime={machineDateTime(event.at)}>{formatDateTime(event.at)}</time>
            {event.staffName ? ` · by ${event.staffName}` : ''}
            {event.visible ? null : <span className="ops-secondary">Staff only: the customer does not see this line.</span>}
            {event.text ? <p>{event.text}</p> : null}
            {event.staffReason ? <p>Staff reason: {event.staffReason}</p> : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
