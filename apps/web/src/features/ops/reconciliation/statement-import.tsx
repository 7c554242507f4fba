import { useRef, useState, type FormEvent } from 'react';
import { Upload } from 'lucide-react';
import { importStatementRequestSchema, type BankStatement } from '@strongroom/contracts/books.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { formatBankDate } from '../disputes/dispute-words.ts';
import { useImportStatement } from './reconciliation-api.ts';
import { reconciliationRefusalInWords } from './reconciliation-words.ts';

function importedText(statement: BankStatement): string {
  const lines = statement.lineCount === 1 ? '1 line' : `${statement.lineCount} lines`;
  return `Imported ${statement.fileName} (${formatBankDate(statement.asOfDate)}): ${lines}, ${statement.matchedCount} matched, ${statement.exceptionCount} in the exceptions queue.`;
}

/**
 * The settlement bank's BAI2 statement, read as text in the browser and sent as JSON: the server
 * parses it, refuses one imported before (409) or a malformed one (400, with the line at fault).
 */
export function StatementImport() {
  const importing = useImportStatement();
  const inputRef = useRef<HTMLInputElement>(null);
  const reasonRef = useRef<HTMLTextAreaElement>(null);
  const [fieldErrors, setFieldErrors] = useState<{ file?: string; reason?: string }>({});
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    importing.reset();
    const file = inputRef.current?.files?.[0];
    const content = file ? (await file.text()).replace(/\r\n?/g, '\n') : '';
    const checked = importStatementRequestSchema.safeParse({ fileName: file?.name ?? '', content, reason: reasonRef.current?.value ?? '' });
    if (!checked.success) {
      const issueOf = (field: string) => checked.error.issues.find((issue) => issue.path[0] === field)?.message;
      const errors = { file: issueOf('fileName') ?? issueOf('content'), reason: issueOf('reason') };
      setFieldErrors(errors);
      (errors.file ? inputRef : reasonRef).current?.focus();
      return;
    }
    setFieldErrors({});
    importing.mutate(checked.data, {
      onSuccess: ({ statement }) => {
        setDone(importedText(statement));
        if (inputRef.current) inputRef.current.value = '';
        if (reasonRef.current) reasonRef.current.value = '';
      },
    });
  }

  return (
    <form noValidate onSubmit={(event) => void submit(event)} className="reconciliation__import" aria-labelledby="statement-import-title">
      <h2 id="statement-import-title">Import a statement</h2>
      <TextField
        ref={inputRef}
        label="BAI2 statement file"
        hint="The settlement bank's statement of the bank's own accounts (.bai or .txt, 2 MB at most)"
        type="file"
        accept=".bai,.bai2,.txt,text/plain"
        error={fieldErrors.file}
      />
      <TextAreaField ref={reasonRef} label="Reason (kept in the audit log)" rows={2} maxLength={500} error={fieldErrors.reason} />
      {done ? (
        <Notice tone="success" role="status">
          {done}
        </Notice>
      ) : null}
      {importing.error ? (
        <Notice tone="error" role="alert">
          {reconciliationRefusalInWords(importing.error)}
        </Notice>
      ) : null}
      <div>
        <Button type="submit" loading={importing.isPending}>
          <Upload aria-hidden="true" size={18} />
          Import the statement
        </Button>
      </div>
    </form>
  );
}
