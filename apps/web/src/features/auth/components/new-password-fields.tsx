import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../../components/ui/text-field.tsx';

type PasswordFieldName = 'password' | 'confirmPassword';

/** The parts of a react-hook-form form these fields use; any form with the two fields has them. */
interface PasswordPairForm {
  register: (name: PasswordFieldName, options?: { onChange?: () => void }) => UseFormRegisterReturn;
  trigger: (name: 'confirmPassword') => Promise<boolean>;
  getFieldState: (name: 'confirmPassword') => { isTouched: boolean };
}

export interface NewPasswordFieldsProps {
  form: PasswordPairForm;
  errors: Partial<Record<PasswordFieldName, FieldError>>;
  /** "Password" on sign-up, "New password" when a forgotten one is replaced. */
  passwordLabel: string;
  confirmLabel: string;
  /** Keeps the confirmation's message line even while empty, so that the button below does not jump. */
  reserveConfirmErrorSpace?: boolean;
}

/** A new password and its confirmation; a confirmation already typed is checked again when the password changes. */
export function NewPasswordFields({ form, errors, passwordLabel, confirmLabel, reserveConfirmErrorSpace }: NewPasswordFieldsProps) {
  const { register, trigger, getFieldState } = form;
  return (
    <>
      <TextField
        label={passwordLabel}
        type="password"
        autoComplete="new-password"
        hint="At least 8 characters. A few unrelated words make a strong password that is easy to remember."
        required
        error={errors.password?.message}
        {...register('password', {
          // A confirmation already typed is checked again when the password it must match changes.
          onChange: () => {
            if (getFieldState('confirmPassword').isTouched) void trigger('confirmPassword');
          },
        })}
      />
      <TextField
        label={confirmLabel}
        type="password"
        autoComplete="new-password"
        required
        reserveErrorSpace={reserveConfirmErrorSpace}
        error={errors.confirmPassword?.message}
        {...register('confirmPassword')}
      />
    </>
  );
}
