import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Send } from 'lucide-react';
import type { ContactMessageRequest } from '@strongroom/contracts/contact.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadingOverlay } from '../../../components/ui/loading-overlay.tsx';
import { TextAreaField, TextField } from '../../../components/ui/text-field.tsx';
import { loadContactSchemas, useSendContactMessage } from '../api/send-contact-message.ts';
import './contact-form.css';

type FieldName = keyof ContactMessageRequest;
type FieldErrors = Partial<Record<FieldName, string>>;
type Schemas = Awaited<ReturnType<typeof loadContactSchemas>>;

const emptyValues: ContactMessageRequest = { name: '', email: '', phone: '', subject: '', message: '' };
const fieldOrder: readonly FieldName[] = ['name', 'email', 'phone', 'subject', 'message'];

function isFieldName(key: string): key is FieldName {
  return fieldOrder.some((name) => name === key);
}

/** The first message for each field, in the order the fields appear. */
function errorsOf(schemas: Schemas, values: ContactMessageRequest): { data?: ContactMessageRequest; errors: FieldErrors } {
  const result = schemas.contactMessageRequestSchema.safeParse(values);
  if (result.success) return { data: result.data, errors: {} };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const key = String(issue.path[0]);
    if (isFieldName(key)) errors[key] ??= issue.message;
  }
  return { errors };
}

/**
 * The form's values and errors: errors appear after the first attempt to send and then follow the
 * typing; the first wrong field gets focus; what the server still finds is shown beside its field.
 */
function useContactForm() {
  const [values, setValues] = useState<ContactMessageRequest>(emptyValues);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempted, setAttempted] = useState(false);
  const [focusFirstError, setFocusFirstError] = useState(false);
  const schemasRef = useRef<Schemas | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const { state, send, reset } = useSendContactMessage();

  function prepareSchemas(): Promise<Schemas> {
    return loadContactSchemas().then((schemas) => {
      schemasRef.current = schemas;
      return schemas;
    });
  }

  useEffect(() => {
    if (!focusFirstError) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
    setFocusFirstError(false);
  }, [focusFirstError]);

  function onChange(event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) {
    const { name, value } = event.target;
    if (!isFieldName(name)) return;
    const next = { ...values, [name]: value };
    setValues(next);
    if (attempted && schemasRef.current) setErrors(errorsOf(schemasRef.current, next).errors);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (state.status === 'sending') return;
    setAttempted(true);
    let schemas: Schemas;
    try {
      schemas = schemasRef.current ?? (await prepareSchemas());
    } catch {
      setErrors({});
      await send(values); // Reports the network failure through the result dialog.
      return;
    }
    const { data, errors: found } = errorsOf(schemas, values);
    setErrors(found);
    if (!data) {
      setFocusFirstError(true);
      return;
    }
    const sent = await send(data);
    if (sent) {
      setValues(emptyValues);
      setAttempted(false);
    }
  }

  useEffect(() => {
    // The server checks the same schema; if it still finds something, show it beside the field.
    if (state.status !== 'failed' || state.error.code !== 'validation_failed') return;
    const serverErrors: FieldErrors = {};
    for (const [key, message] of Object.entries(state.error.fields)) if (isFieldName(key)) serverErrors[key] = message;
    if (Object.keys(serverErrors).length > 0) {
      setErrors(serverErrors);
      setFocusFirstError(true);
    }
  }, [state]);

  const fieldProps = (name: FieldName) => ({
    name,
    value: values[name],
    onChange,
    error: errors[name],
    required: true,
  });
  // The schemas load on the first focus, so that checking the first attempt waits for nothing.
  const onFocus = () => {
    if (!schemasRef.current) void prepareSchemas().catch(() => undefined);
  };

  return { formRef, fieldProps, onSubmit, onFocus, state, reset };
}

/**
 * The contact form (seed: all five fields required, each with its own message). Errors appear
 * after the first attempt to send and then follow the typing; the first wrong field gets focus.
 */
export function ContactForm() {
  const { formRef, fieldProps, onSubmit, onFocus, state, reset } = useContactForm();
  const showResult = state.status === 'sent' || (state.status === 'failed' && state.error.code !== 'validation_failed');

  return (
    <>
      <form ref={formRef} className="contact-form" noValidate onSubmit={onSubmit} onFocus={onFocus} aria-label="Send us a message">
        <div className="contact-form__row">
          <TextField label="Name" autoComplete="name" {...fieldProps('name')} />
          <TextField label="Email" type="email" autoComplete="email" {...fieldProps('email')} />
        </div>
        <div className="contact-form__row">
          <TextField label="Phone" type="tel" autoComplete="tel" inputMode="tel" {...fieldProps('phone')} />
          <TextField label="Subject" {...fieldProps('subject')} />
        </div>
        <TextAreaField label="Message" rows={6} {...fieldProps('message')} />
        <div>
          <Button type="submit" size="lg" loading={state.status === 'sending'}>
            <Send aria-hidden="true" size={18} />
            Send Message
          </Button>
        </div>
      </form>

      <LoadingOverlay open={state.status === 'sending'} label="Sending your message" />
      <Dialog
        open={showResult}
        onClose={reset}
        size="sm"
        role={state.status === 'failed' ? 'alertdialog' : 'dialog'}
        title={state.status === 'sent' ? 'Message sent' : 'Your message was not sent'}
        description={<p>{state.status === 'sent' ? state.message : state.status === 'failed' ? state.error.message : ''}</p>}
        footer={
          <Button onClick={reset} data-autofocus>
            Got it!
          </Button>
        }
      />
    </>
  );
}
