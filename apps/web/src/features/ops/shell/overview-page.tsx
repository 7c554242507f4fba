import { useStaffMe } from '../api/staff-session.ts';

/** The console's first page: who is signed in and what their role lets them do. */
export default function OverviewPage() {
  const me = useStaffMe();
  if (!me.data) return null;
  const { staff } = me.data;
  return (
    <section aria-labelledby="ops-overview-title">
      <h1 id="ops-overview-title">Back office</h1>
      <p>
        Signed in as <strong>{staff.email}</strong>, role <strong>{staff.role}</strong>.
      </p>
      <h2>Your permissions</h2>
      <ul>
        {staff.permissions.map((permission) => (
          <li key={permission}>
            <code>{permission}</code>
          </li>
        ))}
      </ul>
    </section>
  );
}
