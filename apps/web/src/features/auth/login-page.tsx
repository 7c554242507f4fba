import { useLocation, useNavigate } from 'react-router';
import { LoginScreen } from './login-screen.tsx';
import { pathForNextStep } from './next-step.ts';

function readState(state: unknown): { reason?: 'timed-out'; notice?: string } {
  if (typeof state !== 'object' || state === null) return {};
  if ('reason' in state && state.reason === 'timed-out') return { reason: 'timed-out' };
  if ('notice' in state && typeof state.notice === 'string') return { notice: state.notice };
  return {};
}

/** /login: after sign-in, go wherever the server says the customer has to go next. */
export default function LoginPage() {
  const navigate = useNavigate();
  const { reason, notice } = readState(useLocation().state);
  return <LoginScreen reason={reason} notice={notice} onSignedIn={(result, email) => navigate(pathForNextStep(result.next, email))} />;
}
