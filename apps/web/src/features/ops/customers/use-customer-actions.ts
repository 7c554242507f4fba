import { useState } from 'react';
import { useCustomerAction, type CustomerAction } from './api/customer-actions.ts';

/** An action staff asked for, waiting for its reason: what it does, in words, before it is sent. */
export interface PendingAction {
  action: CustomerAction;
  title: string;
  consequence: string;
  confirmLabel: string;
}

/**
 * The customer page's actions (end a session or all, freeze, unfreeze): one asked for at a time,
 * confirmed with a reason, and what was done said on the page.
 */
export function useCustomerActions(customerId: string) {
  const action = useCustomerAction(customerId);
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [done, setDone] = useState<string | null>(null);

  function ask(next: PendingAction) {
    action.reset();
    setDone(null);
    setPending(next);
  }

  function confirm(body: { reason: string } | { reason: string; customerMessage: string }) {
    if (!pending) return;
    const chosen = pending;
    action.mutate(
      { action: chosen.action, body },
      {
        onSuccess: () => {
          setPending(null);
          setDone(`${chosen.confirmLabel}: done.`);
        },
      },
    );
  }

  return { pending, cancel: () => setPending(null), done, setDone, ask, confirm, busy: action.isPending, error: action.error?.message };
}

export type CustomerActions = ReturnType<typeof useCustomerActions>;
