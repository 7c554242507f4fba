import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { UserPlus } from 'lucide-react';
import { createStaffRequestSchema, type CreateStaffRequest, type StaffAccount, type StaffEnrolment } from '@strongroom/contracts/staff.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { LoadFailed } from '../../../components/ui/load-failed.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { Table, type TableColumn } from '../../../components/ui/table.tsx';
import { TextField } from '../../../components/ui/text-field.tsx';
import { EnrolmentPanel } from './enrolment-panel.tsx';
import { staffRoleOptions, staffRoleWords } from './staff-role-words.ts';
import { linkedForFourEyes, StaffActionDialog, type StaffAction } from './staff-action-dialog.tsx';
import { useStaffMe } from '../api/staff-session.ts';
import { useCreateStaffMember, useStaffMembers } from './staff-members-api.ts';
import { statusWords } from '../status-words.ts';
import './staff-members-page.css';

function formatTime(iso: string | null): string {
  return iso ? `${iso.replace('T', ' ').slice(0, 16)} UTC` : 'Never';
}

function CreateStaffForm({ onCreated }: { onCreated: (enrolment: StaffEnrolment, email: string) => void }) {
  const create = useCreateStaffMember();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<CreateStaffRequest>({
    resolver: zodResolver(createStaffRequestSchema),
    mode: 'onTouched',
    defaultValues: { email: '', password: '', role: 'support', reason: '' },
  });
  const onSubmit = handleSubmit((values) =>
    create.mutate(values, {
      onSuccess: (enrolment) => {
        reset();
        onCreated(enrolment, values.email);
      },
    }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="staff-create" aria-labelledby="staff-create-title">
      <h2 id="staff-create-title">Add a staff member</h2>
      <p>{linkedForFourEyes} Approvers independent of every administrator are created by the operator with create-staff.</p>
      <TextField label="Email" type="email" autoComplete="off" required error={errors.email?.message} {...register('email')} />
      <TextField label="Initial password" type="password" autoComplete="new-password" required error={errors.password?.message} {...register('password')} />
      <SelectField label="Role" options={staffRoleOptions} error={errors.role?.message} {...register('role')} />
      <TextField label="Reason" required hint="Kept in the audit log" error={errors.reason?.message} {...register('reason')} />
      {create.isError ? (
        <Notice tone="error" role="alert">
          {create.error.message}
        </Notice>
      ) : null}
      <Button type="submit" loading={create.isPending}>
        <UserPlus aria-hidden="true" size={18} />
        Add staff member
      </Button>
    </form>
  );
}

/** `/ops/staff` (`staff.manage`): who works in the back office, and each change to them with a reason. */
export default function StaffMembersPage() {
  const members = useStaffMembers();
  const me = useStaffMe();
  const [pending, setPending] = useState<{ member: StaffAccount; action: StaffAction }>();
  const [created, setCreated] = useState<{ enrolment: StaffEnrolment; email: string }>();

  const columns: readonly TableColumn<StaffAccount>[] = [
    { key: 'email', header: 'Email', cell: (member) => member.email },
    { key: 'role', header: 'Role', cell: (member) => staffRoleWords[member.role] },
    { key: 'status', header: 'Status', cell: (member) => <span className={`staff-status staff-status--${member.status}`}>{statusWords[member.status]}</span> },
    { key: 'last', header: 'Last sign-in', cell: (member) => formatTime(member.lastSignInAt) },
    {
      key: 'actions',
      header: 'Actions',
      cell: (member) =>
        // Nobody changes their own access (the server refuses it too): another administrator does.
        member.id === me.data?.staff.id ? (
          <span className="staff-actions__self">You: another administrator changes your access</span>
        ) : (
          <div className="staff-actions">
            <Button size="sm" variant="secondary" onClick={() => setPending({ member, action: 'role' })} aria-label={`Change the role of ${member.email}`}>
              Change role
            </Button>
            <Button
              size="sm"
              variant="secondary"
              onClick={() => setPending({ member, action: 'reset-second-factor' })}
              aria-label={`Reset the second factor of ${member.email}`}
            >
              Reset second factor
            </Button>
            {member.status === 'active' ? (
              <Button size="sm" variant="danger" onClick={() => setPending({ member, action: 'disable' })} aria-label={`Disable ${member.email}`}>
                Disable
              </Button>
            ) : (
              <Button size="sm" variant="secondary" onClick={() => setPending({ member, action: 'enable' })} aria-label={`Enable ${member.email}`}>
                Enable
              </Button>
            )}
          </div>
        ),
    },
  ];

  return (
    <section aria-labelledby="staff-title" className="ops-page">
      <h1 id="staff-title">Staff</h1>
      {members.isPending ? (
        <p>
          <Spinner size="sm" /> Loading the staff
        </p>
      ) : null}
      {members.isError ? <LoadFailed title="The staff could not be loaded" query={members} /> : null}
      {members.data ? (
        <div className="staff-table">
          <Table caption="Staff members" captionHidden columns={columns} rows={members.data.items} rowKey={(member) => member.id} empty="No staff yet." />
        </div>
      ) : null}
      <CreateStaffForm onCreated={(enrolment, email) => setCreated({ enrolment, email })} />
      {pending ? <StaffActionDialog member={pending.member} action={pending.action} onClose={() => setPending(undefined)} /> : null}
      {created ? (
        <Dialog
          open
          onClose={() => setCreated(undefined)}
          title={`${created.email} can now enrol`}
          description="Give them this second factor in person."
          dismissible={false}
        >
          <EnrolmentPanel enrolment={created.enrolment} email={created.email} />
          <Button onClick={() => setCreated(undefined)}>I have saved it</Button>
        </Dialog>
      ) : null}
    </section>
  );
}
