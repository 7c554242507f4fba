import { useForm, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  newSecureMessageRequestSchema,
  secureMessageLimits,
  type NewSecureMessageRequest,
  type SecureMessageThread,
} from '@strongroom/contracts/secure-messages.ts';
import type { z } from 'zod';
import { Button } from '../../components/ui/button.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { showServerFieldErrors } from '../../lib/server-field-errors.ts';
import { useSendSecureMessage } from './messages-api.ts';
import { MessageTextField } from './message-text-field.tsx';

const fieldNames: readonly Path<NewSecureMessageRequest>[] = ['subject', 'text'];

/** A new thread with support: subject and message, checked with the server's own schema. */
export function NewMessageForm({
  onSent,
  onCancel,
  onError,
}: {
  onSent: (thread: SecureMessageThread) => void;
  onCancel: () => void;
  onError: (message: string) => void;
}) {
  const send = useSendSecureMessage();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<NewSecureMessageRequest, unknown, z.output<typeof newSecureMessageRequestSchema>>({
    resolver: zodResolver(newSecureMessageRequestSchema),
    mode: 'onTouched',
    defaultValues: { subject: '', text: '' },
  });
  const onSubmit = handleSubmit((values) => {
    send.mutate(values, {
      onSuccess: onSent,
      onError: (error) => {
        if (!showServerFieldErrors(error, fieldNames, setError)) onError(error.message);
      },
    });
  });
  return (
    <form className="secure-messages__form" noValidate onSubmit={onSubmit} aria-label="New message">
      <TextField
        label="Subject"
        autoComplete="off"
        required
        maxLength={secureMessageLimits.subjectMaxLength}
        error={errors.subject?.message}
        {...register('subject')}
      />
      <MessageTextField
        label="Message"
        hint="Never write a password or a code: we will never ask for one."
        rows={6}
        error={errors.text?.message}
        {...register('text')}
      />
      <div className="secure-messages__actions">
        <Button type="submit" loading={send.isPending}>
          Send message
        </Button>
        <Button variant="secondary" onClick={onCancel} disabled={send.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
