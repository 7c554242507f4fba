import type { Path } from 'react-hook-form';
import { LockKeyhole } from 'lucide-react';
import { changePasswordRequestSchema, type ChangePasswordRequest } from '@strongroom/contracts/security.ts';
import { ErrorDialog } from '../../../components/ui/error-dialog.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { showServerFieldErrors } from '../../../lib/server-field-errors.ts';
import { StepUpDialog } from '../../../components/step-up/step-up-dialog.tsx';
import { SettingsSection, SettingsSubmit } from '../settings-section.tsx';
import { useSettingsForm } from '../use-settings-form.ts';
import { useChangePassword } from './api/security.ts';

const fieldNames: readonly Path<ChangePasswordRequest>[] = ['currentPassword', 'password', 'confirmPassword'];
const emptyForm: ChangePasswordRequest = { currentPassword: '', password: '', confirmPassword: '' };

/**
 * Settings > Security > Password: the current password, the new one twice (sign-up's rules, D5),
 * then a step-up code. Every other session ends and an email tells the customer (ASVS 7.4.3).
 */
export function PasswordSection() {
  const change = useChangePassword();
  const toast = useToast();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
    errorMessage,
    setErrorMessage,
    closeError,
  } = useSettingsForm<ChangePasswordRequest>(changePasswordRequestSchema, emptyForm);

  const onSubmit = handleSubmit(async (values) => {
    const outcome = await change.submit(values);
    if (outcome.status === 'done') {
      reset(emptyForm);
      const ended = outcome.result.otherSessionsEnded;
      toast.show(
        ended === 0
          ? 'Your password is changed. We emailed you about it.'
          : `Your password is changed. We signed out ${ended} other ${ended === 1 ? 'session' : 'sessions'} and emailed you about it.`,
      );
    } else if (outcome.status === 'failed' && !showServerFieldErrors(outcome.error, fieldNames, setError)) {
      setErrorMessage(outcome.error instanceof ApiError ? outcome.error.message : 'We could not read the answer. Please try again.');
    }
  });

  return (
    <SettingsSection icon={LockKeyhole} title="Password">
      <p className="security-section__lead">Changing it signs you out everywhere else. We ask for a code first and email you when it is done.</p>
      <form className="security-form" noValidate onSubmit={onSubmit} aria-label="Change password">
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters. A long phrase is easier to remember and harder to guess."
          error={errors.password?.message}
          {...register('password')}
        />
        <TextField
          label="Confirm new password"
          type="password"
          autoComplete="new-password"
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        <SettingsSubmit loading={change.isPending}>Change password</SettingsSubmit>
      </form>
      <StepUpDialog {...change.dialog} />
      <ErrorDialog title="Your password was not changed" message={errorMessage} onClose={closeError} />
    </SettingsSection>
  );
}
