import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { disputeInformationRequestSchema, type DisputeEvent } from '@strongroom/contracts/disputes.ts';
import { Button } from '../../components/ui/button.tsx';
import { Notice } from '../../components/ui/notice.tsx';
import { TextAreaField } from '../../components/ui/text-field.tsx';
import { useToast } from '../../components/ui/toast.tsx';
import { useDisputeActions } from './api/disputes.ts';
import { disputeErrorMessage } from './dispute-words.ts';

type AnswerValues = z.input<typeof disputeInformationRequestSchema>;
type AnswerChecked = z.output<typeof disputeInformationRequestSchema>;

/** "Answer the bank's question": shown while the bank's last word is a question; `POST /disputes/{id}/information`. */
export function AnswerQuestion({ disputeId, question }: { disputeId: string; question: DisputeEvent }) {
  const { answer } = useDisputeActions(disputeId);
  const toast = useToast();
  const form = useForm<AnswerValues, unknown, AnswerChecked>({ resolver: zodResolver(disputeInformationRequestSchema), defaultValues: { text: '' } });
  const refusal = answer.error ? disputeErrorMessage(answer.error) : null;
  return (
    <section aria-labelledby="dispute-question-title" className="dispute-section dispute-question">
      <h2 id="dispute-question-title">Answer the bank’s question</h2>
      <blockquote className="dispute-question__asked">{question.text}</blockquote>
      <form
        noValidate
        className="dispute-form"
        onSubmit={form.handleSubmit(({ text }) =>
          answer.mutate(text, {
            onSuccess: () => {
              form.reset();
              toast.show('Your answer is sent.', 'success');
            },
          }),
        )}
      >
        <TextAreaField label="Your answer" maxLength={2000} error={form.formState.errors.text?.message} {...form.register('text')} />
        {refusal ? (
          <Notice tone="error" role="alert">
            <p>{refusal.words}</p>
          </Notice>
        ) : null}
        <div className="dispute-form__actions">
          <Button type="submit" loading={answer.isPending}>
            Send the answer
          </Button>
        </div>
      </form>
    </section>
  );
}
