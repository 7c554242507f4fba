import { Notice } from '../../components/ui/notice.tsx';

export interface FormOutcomeProps {
  /** What was done, announced politely; null before the form is sent. */
  success: string | null;
  /** Why nothing was done, announced at once. */
  failure: string | null;
}

/** What a card's form says once it is answered (pay the card, its limits), under its fields. */
export function FormOutcome({ success, failure }: FormOutcomeProps) {
  return (
    <>
      <div role="status">
        {success ? (
          <Notice tone="success">
            <p>{success}</p>
          </Notice>
        ) : null}
      </div>
      {failure ? (
        <Notice tone="error" role="alert">
          <p>{failure}</p>
        </Notice>
      ) : null}
    </>
  );
}
