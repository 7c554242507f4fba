import type { SecureMessageStatus } from '@strongroom/contracts/secure-messages.ts';
import { Badge } from '../../components/ui/badge.tsx';

const labels: Record<SecureMessageStatus, string> = { waiting: 'Waiting for our answer', answered: 'Answered' };

/** A thread's status in words (the colour only repeats them). */
export function ThreadStatus({ status }: { status: SecureMessageStatus }) {
  return (
    <Badge tone={status === 'waiting' ? 'warning' : 'success'} size="xs">
      {labels[status]}
    </Badge>
  );
}
