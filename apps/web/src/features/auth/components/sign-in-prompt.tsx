import { Link } from 'react-router';

/** The line under a sign-up screen for someone who may already be able to sign in: a question, then the link. */
export function SignInPrompt({ question, linkText = 'Sign in' }: { question: string; linkText?: string }) {
  return (
    <p className="auth-links">
      <span>
        {question} <Link to="/login">{linkText}</Link>
      </span>
    </p>
  );
}
