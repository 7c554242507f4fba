import { FileText } from 'lucide-react';
import { maxDisputeEvidenceFiles, type DisputeDetail } from '@strongroom/contracts/disputes.ts';
import { disputeEvidenceUrl } from './api/disputes.ts';
import { AddEvidence } from './add-evidence.tsx';
import { formatFileSize } from './evidence-check.ts';

/** The files the customer sent, each openable by them, and "Add evidence" while the report is open and has room. */
export function DisputeEvidence({ detail, open }: { detail: DisputeDetail; open: boolean }) {
  const { dispute, evidence } = detail;
  const room = maxDisputeEvidenceFiles - evidence.length;
  return (
    <section aria-labelledby="dispute-evidence-title" className="dispute-section">
      <h2 id="dispute-evidence-title">Your evidence</h2>
      {evidence.length === 0 ? (
        <p className="dispute-section__empty">You have not sent any files.</p>
      ) : (
        <ul className="dispute-files">
          {evidence.map((item) => (
            <li key={item.id} className="dispute-files__item">
              <a href={disputeEvidenceUrl(dispute.id, item.id)} download className="dispute-files__link">
                <FileText aria-hidden="true" size={18} />
                {item.fileName}
              </a>
              <span className="dispute-files__size tabular">{formatFileSize(item.byteSize)}</span>
            </li>
          ))}
        </ul>
      )}
      {open && room > 0 ? <AddEvidence disputeId={dispute.id} room={room} /> : null}
      {open && room <= 0 ? <p className="dispute-section__empty">{`You have sent the most files a report can have (${maxDisputeEvidenceFiles}).`}</p> : null}
    </section>
  );
}
