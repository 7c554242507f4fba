import { staffRoles, type StaffRole } from '@strongroom/contracts/staff.ts';

/** Each role by its name in words, for the role pickers and the list of staff. */
export const staffRoleWords: Readonly<Record<StaffRole, string>> = {
  support: 'Support',
  compliance: 'Compliance',
  operations: 'Operations',
  admin: 'Administrator',
  finance: 'Finance',
};

/** The role picker's choices, every role of the contract with its label. */
export const staffRoleOptions = staffRoles.map((role) => ({ value: role, label: staffRoleWords[role] }));
