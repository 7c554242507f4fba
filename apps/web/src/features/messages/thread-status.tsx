import type { SecureMessageStatus } from '@strongroom/contracts/secure-messages.ts';

const labels: Record<SecureMessageStatus, string> = { waiting: 'Waiting for our answer', answered: 'Answered' };

/** A thread's status in words (the colour only repeats them). */
export function ThreadStatus({ status }: { status: SecureMessageStatus }) {
  return <span className={`secure-thread-status secure-thread-status--${status}`}>{labels[status]}</span>;
}
