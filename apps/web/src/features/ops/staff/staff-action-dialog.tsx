import { useState, type FormEvent } from 'react';
import { decisionReasonField, staffRoleSchema, type StaffAccount, type StaffRole } from '@strongroom/contracts/staff.ts';
import { staffRoleOptions } from './staff-role-words.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Notice } from '../../../components/ui/notice.tsx';
import { SelectField } from '../../../components/ui/select-field.tsx';
import { TextAreaField } from '../../../components/ui/text-field.tsx';
import { EnrolmentPanel } from './enrolment-panel.tsx';
import { useChangeStaffMember } from './staff-members-api.ts';

export type StaffAction = 'disable' | 'enable' | 'role' | 'reset-second-factor';

const titles: Record<StaffAction, string> = {
  disable: 'Disable this staff member',
  enable: 'Enable this staff member',
  role: 'Change the role',
  'reset-second-factor': 'Reset the second factor',
};

/**
 * What a grant of access does to four eyes (decision 050): the server refuses two approvers linked
 * by grants, so the admin is told before making one. A disable grants nothing.
 */
export const linkedForFourEyes =
  'You become linked to them for four eyes: neither of you can complete a large release the other approved, and they cannot pair with anyone else you gave access to.';

const consequences: Record<StaffAction, string> = {
  disable: 'Their sessions end at once and they cannot sign in until enabled again.',
  enable: `They can sign in again with their password and authenticator. ${linkedForFourEyes}`,
  role: `The new role applies to their next request. ${linkedForFourEyes}`,
  'reset-second-factor': `Their current authenticator stops working. The new one is shown once, here. ${linkedForFourEyes}`,
};

/** The confirmation of one change to a staff member, with the reason the audit log keeps. */
export function StaffActionDialog({ member, action, onClose }: { member: StaffAccount; action: StaffAction; onClose: () => void }) {
  const change = useChangeStaffMember();
  const [reason, setReason] = useState('');
  const [role, setRole] = useState<StaffRole>(member.role);
  const [reasonError, setReasonError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = decisionReasonField.safeParse(reason);
    if (!checked.success) {
      setReasonError(checked.error.issues[0]?.message);
      return;
    }
    setReasonError(undefined);
    const request = action === 'role' ? { kind: action, id: member.id, role, reason: checked.data } : { kind: action, id: member.id, reason: checked.data };
    change.mutate(request, { onSuccess: (enrolment) => (enrolment ? undefined : onClose()) });
  };

  const enrolment = change.data;
  return (
    <Dialog open onClose={onClose} title={titles[action]} description={`${member.email}. ${consequences[action]}`} role="alertdialog">
      {enrolment ? (
        <>
          <EnrolmentPanel enrolment={enrolment} email={member.email} />
          <Button onClick={onClose}>I have saved it</Button>
        </>
      ) : (
        <form noValidate onSubmit={submit} className="ops-form">
          {action === 'role' ? (
            <SelectField label="New role" value={role} options={staffRoleOptions} onChange={(event) => setRole(staffRoleSchema.parse(event.target.value))} />
          ) : null}
          <TextAreaField
            label="Reason"
            required
            rows={3}
            hint="Kept in the audit log"
            value={reason}
            error={reasonError}
            onChange={(event) => setReason(event.target.value)}
          />
          {change.isError ? (
            <Notice tone="error" role="alert">
              {change.error.message}
            </Notice>
          ) : null}
          <div className="ops-form__actions">
            <Button variant="secondary" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" variant={action === 'disable' || action === 'reset-second-factor' ? 'danger' : 'primary'} loading={change.isPending}>
              {titles[action]}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
