import { X } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Field } from '../../components/ui/field.tsx';
import { evidenceAccept, evidenceMessages, formatFileSize } from './evidence-check.ts';
import type { EvidenceChoice } from './use-evidence-choice.ts';

/** Files chosen from this device, checked at once (type and size) and listed with a way to remove each. No upload happens here. */
export function EvidencePicker({ choice, label = 'Evidence', optional = true }: { choice: EvidenceChoice; label?: string; optional?: boolean }) {
  const error = choice.refusals.length > 0 ? choice.refusals.join(' ') : undefined;
  return (
    <div className="dispute-evidence-picker">
      <Field label={label} optional={optional} hint={evidenceMessages.hint} error={error}>
        {(ids) => (
          <input
            id={ids.id}
            type="file"
            multiple
            accept={evidenceAccept}
            className="dispute-evidence-picker__input"
            aria-invalid={ids.invalid || undefined}
            aria-describedby={ids.describedBy}
            onChange={(event) => {
              choice.add(Array.from(event.target.files ?? []));
              // The same file may be picked again after it was removed.
              event.target.value = '';
            }}
          />
        )}
      </Field>
      {choice.files.length > 0 ? (
        <ul className="dispute-files" aria-label="Files to send">
          {choice.files.map((file, index) => (
            <li key={`${file.name}-${index}`} className="dispute-files__item">
              <span className="dispute-files__name">{file.name}</span>
              <span className="dispute-files__size tabular">{formatFileSize(file.size)}</span>
              <Button variant="ghost" size="sm" onClick={() => choice.remove(index)} aria-label={`Remove ${file.name}`}>
                <X aria-hidden="true" size={16} />
                Remove
              </Button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
