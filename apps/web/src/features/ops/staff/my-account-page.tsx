import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { staffPasswordChangeSchema, type StaffPasswordChange } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import { useChangeOwnPassword } from './staff-members-api.ts';

/** `/ops/account`: any staff member's own password. */
export default function MyAccountPage() {
  const me = useStaffMe();
  const change = useChangeOwnPassword();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<StaffPasswordChange>({ resolver: zodResolver(staffPasswordChangeSchema), mode: 'onTouched' });
  const onSubmit = handleSubmit((values) => change.mutate(values, { onSuccess: () => reset({ currentPassword: '', password: '', confirmPassword: '' }) }));
  return (
    <section aria-labelledby="account-title" className="ops-page">
      <h1 id="account-title">My account</h1>
      {me.data ? (
        <p>
          {me.data.staff.email}, role {me.data.staff.role}.
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="ops-form" aria-labelledby="password-title">
        <h2 id="password-title">Change my password</h2>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          required
          error={errors.currentPassword?.message}
          {...register('currentPassword')}
        />
        <TextField label="New password" type="password" autoComplete="new-password" required error={errors.password?.message} {...register('password')} />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          required
          error={errors.confirmPassword?.message}
          {...register('confirmPassword')}
        />
        {change.isSuccess ? (
          <Notice tone="success" role="status">
            Your password is changed.
          </Notice>
        ) : null}
        {change.isError ? (
          <Notice tone="error" role="alert">
            {change.error.message}
          </Notice>
        ) : null}
        <Button type="submit" loading={change.isPending}>
          Change password
        </Button>
      </form>
    </section>
  );
}
