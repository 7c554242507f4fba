import { useNavigate } from 'react-router';
import { LoginScreen } from './login-screen.tsx';
import { pathForNextStep } from './next-step.ts';

/** /login: after sign-in, go wherever the server says the customer has to go next. */
export default function LoginPage() {
  const navigate = useNavigate();
  return <LoginScreen onSignedIn={(result, email) => navigate(pathForNextStep(result.next, email))} />;
}
