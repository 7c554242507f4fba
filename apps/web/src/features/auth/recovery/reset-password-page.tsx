import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate, useParams } from 'react-router';
import { KeyRound } from 'lucide-react';
import { authMessages, passwordResetCompleteSchema, tokenRequestSchema } from '@strongroom/contracts/auth.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { useCheckPasswordReset } from '../api/check-password-reset.ts';
import { useCompletePasswordReset, type PasswordResetInput } from '../api/complete-password-reset.ts';
import { AuthProgress, AuthScreen } from '../components/auth-screen.tsx';
import { BrokenLinkScreen } from '../components/broken-link-screen.tsx';
import { NewPasswordFields } from '../components/new-password-fields.tsx';
import type { LoginPageState } from '../../../lib/login-page-state.ts';
import { passwordMatchCheck, passwordsMatch } from '../password-match.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';

const description = 'Set a new password for online banking.';

const resetFormSchema = passwordResetCompleteSchema.refine(passwordsMatch, passwordMatchCheck);

/**
 * /resetpassword/{token}: the link is checked as the page opens (seed section 4); a good link
 * shows the 'update password' form, a bad one says so and offers a new one. Success ends every
 * session of the customer and leads to sign-in.
 */
export default function ResetPasswordPage() {
  const { token = '' } = useParams();
  const wellFormed = tokenRequestSchema.safeParse({ token }).success;
  const check = useCheckPasswordReset(token, { enabled: wellFormed });

  if (!wellFormed || check.isError) {
    return (
      <BrokenLinkScreen
        description={description}
        message={check.error?.message ?? authMessages.resetLinkInvalid}
        action={{ to: '/forgetpassword', label: 'Ask for a new link' }}
      />
    );
  }

  if (check.isPending) {
    return (
      <AuthScreen title="Update password" description={description} icon={<KeyRound aria-hidden="true" size={28} />}>
        <AuthProgress label="Checking your link…" />
      </AuthScreen>
    );
  }
  return <UpdatePasswordForm token={token} />;
}

function UpdatePasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const complete = useCompletePasswordReset();
  const [dialogError, setDialogError] = useState<string | null>(null);
  const form = useForm<PasswordResetInput>({
    resolver: zodResolver(resetFormSchema),
    mode: 'onTouched',
    defaultValues: { token, password: '', confirmPassword: '' },
  });
  const {
    handleSubmit,
    setError,
    formState: { errors },
  } = form;

  const onSubmit = handleSubmit((values) => {
    complete.mutate(values, {
      onSuccess: (answer) => {
        const state: LoginPageState = { notice: answer.message };
        navigate('/login', { replace: true, state });
      },
      onError: (error) => {
        if (!showServerFieldErrors(error, ['password', 'confirmPassword'], setError)) setDialogError(error.message);
      },
    });
  });

  return (
    <AuthScreen
      title="Update password"
      description={description}
      icon={<KeyRound aria-hidden="true" size={28} />}
      lead={<p>Choose a new password. Saving it signs you out everywhere, on every device.</p>}
    >
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        <NewPasswordFields form={form} errors={errors} passwordLabel="New password" confirmLabel="Confirm new password" />
        <Button type="submit" size="lg" block loading={complete.isPending}>
          Update password
        </Button>
      </form>
      <ErrorDialog title="The password was not changed" message={dialogError} onClose={() => setDialogError(null)} />
    </AuthScreen>
  );
}
