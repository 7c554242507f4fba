import { useRef, useState, type FormEvent } from 'react';
import { Upload } from 'lucide-react';
import { importStatementRequestSchema, type BankStatement } from '@strongroom/contracts/books.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
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
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [done, setDone] = useState<string | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setDone(null);
    importing.reset();
    const file = inputRef.current?.files?.[0];
    const checked = importStatementRequestSchema.safeParse({ fileName: file?.name ?? '', content: file ? (await file.text()).replace(/\r\n?/g, '\n') : '' });
    if (!checked.success) {
      setFieldError(checked.error.issues[0]?.message);
      inputRef.current?.focus();
      return;
    }
    setFieldError(undefined);
    importing.mutate(checked.data, {
      onSuccess: ({ statement }) => {
        setDone(importedText(statement));
        if (inputRef.current) inputRef.current.value = '';
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
        error={fieldError}
      />
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
