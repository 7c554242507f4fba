import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'react-router';
import { KeyRound, MailCheck } from 'lucide-react';
import { passwordResetRequestSchema } from '@strongroom/contracts/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';
import { AuthScreen } from '../components/auth-screen.tsx';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';

const description = 'Ask for a link to set a new password.';

/**
 * /forgetpassword: asks for a one-hour link by email. The answer is the same whether or not the
 * address has an account, so this page cannot be used to find out who banks here.
 */
export default function ForgotPasswordPage() {
  const request = useRequestPasswordReset();
  const [sentMessage, setSentMessage] = useState<string | null>(null);
  const [dialogError, setDialogError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<{ email: string }>({ resolver: zodResolver(passwordResetRequestSchema), mode: 'onTouched', defaultValues: { email: '' } });

  const onSubmit = handleSubmit((values) => {
    request.mutate(values, {
      onSuccess: (answer) => setSentMessage(answer.message),
      onError: (error) => {
        if (!showServerFieldErrors(error, ['email'], setError)) setDialogError(error.message);
      },
    });
  });

  if (sentMessage) {
    return (
      <AuthScreen title="Check your email" description={description} icon={<MailCheck aria-hidden="true" size={28} />} focusKey="sent">
        <Notice tone="success" role="status">
          <p>{sentMessage}</p>
        </Notice>
        <p className="auth-links">
          <Link to="/login">Back to sign in</Link>
        </p>
      </AuthScreen>
    );
  }

  return (
    <AuthScreen
      title="Forgot your password?"
      pageTitle="Forgot password"
      description={description}
      icon={<KeyRound aria-hidden="true" size={28} />}
      lead={<p>Enter the email address you bank with. We will send you a link to set a new password.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <TextField label="Email" type="email" inputMode="email" autoComplete="email" required error={errors.email?.message} {...register('email')} />
        <Button type="submit" size="lg" block loading={request.isPending}>
          Send me a link
        </Button>
      </form>
      <p className="auth-links">
        <Link to="/login">Back to sign in</Link>
      </p>
      <ErrorDialog title="The link was not sent" message={dialogError} onClose={() => setDialogError(null)} />
    </AuthScreen>
  );
}
