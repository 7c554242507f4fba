import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useLocation } from 'react-router';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import './error-boundary.css';

interface BoundaryProps {
  children: ReactNode;
  /** A new value (the next page) clears the error, so the menu still leads somewhere after a crash. */
  resetKey: string;
}

interface BoundaryState {
  error: Error | null;
  resetKey: string;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

class ErrorBoundaryCore extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null, resetKey: this.props.resetKey };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(messageOf(error)) };
  }

  static getDerivedStateFromProps(props: BoundaryProps, state: BoundaryState): Partial<BoundaryState> | null {
    return props.resetKey === state.resetKey ? null : { error: null, resetKey: props.resetKey };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    // The browser console is where an operator reproducing a report looks first.
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) return <ErrorPage message={this.state.error.message} />;
    return this.props.children;
  }
}

/** What any crash in rendering shows: the seed's 'Unexpected Application Error!' and the message. */
export function ErrorPage({ message }: { message: string }) {
  return (
    <div className="error-page container" role="alert">
      <h1>{resultMessages.unexpectedApplicationError}</h1>
      <p className="error-page__message">{message}</p>
      <p>
        <a href="/">Go to the home page</a>
      </p>
    </div>
  );
}

export function AppErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return <ErrorBoundaryCore resetKey={pathname}>{children}</ErrorBoundaryCore>;
}
