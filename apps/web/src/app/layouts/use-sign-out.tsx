import { useNavigate } from 'react-router';
import { ErrorDialog } from '../../components/ui/error-dialog.tsx';
import { useLogout } from '../../lib/api/logout.ts';

/** Signing out from a signed-in frame: to the sign-in page once the server has ended the session. */
export function useSignOut() {
  const navigate = useNavigate();
  const logout = useLogout();
  return {
    signOut: () => logout.mutate(undefined, { onSuccess: () => navigate('/login') }),
    signingOut: logout.isPending,
    failedDialog: <ErrorDialog title="Sign-out failed" message={logout.error?.message} onClose={() => logout.reset()} />,
  };
}
