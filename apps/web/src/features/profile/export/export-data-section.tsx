import { useState } from 'react';
import { FileArchive } from 'lucide-react';
import { dataExportFiles, dataExportNotYet, dataExportsPerHour } from '@strongroom/contracts/data-export.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { downloadDataExport, waitWords, type ExportOutcome } from './download-export.ts';
import './export-data-section.css';

/** The zip's files as the Settings screen lists them; the transactions file is one per account. */
const listed = dataExportFiles.map((file) => ({
  name: file.name === 'accounts/<number>/transactions.csv' ? 'accounts/(account number)/transactions.csv' : file.name,
  summary: file.summary,
}));

function OutcomeNotice({ outcome }: { outcome: ExportOutcome }) {
  switch (outcome.kind) {
    case 'downloaded':
      return (
        <Notice tone="success" role="status">
          Your data is downloading as {outcome.fileName}. Keep it somewhere safe: it holds your personal and financial details.
        </Notice>
      );
    case 'rate_limited':
      return (
        <Notice tone="error" role="alert">
          You have downloaded your data {dataExportsPerHour} times in the last hour. You can download it again {waitWords(outcome.retryAfterSeconds)}.
        </Notice>
      );
    case 'signed_out':
      return (
        <Notice tone="error" role="alert">
          Your session has ended. <a href="/login">Sign in again</a> to download your data.
        </Notice>
      );
    case 'failed':
      return (
        <Notice tone="error" role="alert">
          Your data could not be downloaded: {outcome.message}. Please try again.
        </Notice>
      );
  }
}

/**
 * Settings' "Download your data" (issue 15, item 6): what the zip holds, and a button that
 * downloads it (GET /me/export). The server limits it to a few an hour; a refusal is said here.
 */
export function ExportDataSection() {
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ExportOutcome | null>(null);

  async function download() {
    setBusy(true);
    setOutcome(null);
    try {
      setOutcome(await downloadDataExport());
    } finally {
      setBusy(false);
    }
  }

  return (
    <Card as="section" className="export-data" aria-labelledby="export-data-title">
      <h2 id="export-data-title" className="export-data__title">
        Download your data
      </h2>
      <p className="export-data__intro">
        A zip file with everything the bank holds about you and your money, in formats you can open in a spreadsheet or a text editor. It includes a README.txt
        that explains each file.
      </p>
      <ul className="export-data__files">
        {listed.map((file) => (
          <li key={file.name}>
            <code className="export-data__file-name">{file.name}</code> <span className="export-data__file-summary">{file.summary}</span>
          </li>
        ))}
      </ul>
      <p className="export-data__intro">
        Never included: your password, full card numbers and security codes, the full account numbers of banks you linked, the full number of your identity
        document, or any code or key that signs you in. You can download your data {dataExportsPerHour} times an hour.
      </p>
      <p className="export-data__intro">{dataExportNotYet}</p>
      <div className="export-data__actions">
        <Button variant="secondary" onClick={download} loading={busy}>
          <FileArchive aria-hidden="true" size={18} />
          {busy ? 'Preparing your data…' : 'Download your data'}
        </Button>
      </div>
      {outcome ? <OutcomeNotice outcome={outcome} /> : null}
    </Card>
  );
}
