import { useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { welcomeStorageKey } from '../../lib/welcome.ts';

/**
 * Whether this customer has seen the welcome is kept in this browser: it is no secret, and the worst
 * a cleared storage does is greet them once more. Without storage (some private modes) the memory
 * of this visit stands in for it.
 */
const seenThisVisit = new Set<string>();

function hasSeenWelcome(userId: string): boolean {
  if (seenThisVisit.has(userId)) return true;
  try {
    return window.localStorage.getItem(welcomeStorageKey(userId)) !== null;
  } catch {
    return false;
  }
}

function rememberWelcomeSeen(userId: string): void {
  seenThisVisit.add(userId);
  try {
    window.localStorage.setItem(welcomeStorageKey(userId), new Date().toISOString());
  } catch {
    // Storage refused (quota, private mode): this visit's memory is enough.
  }
}

/** The seed's welcome modal, shown on a customer's first visit to the dashboard in this browser. */
export function WelcomeDialog({ userId, firstName, bankName }: { userId: string; firstName: string; bankName: string }) {
  const [open, setOpen] = useState(() => !hasSeenWelcome(userId));

  function close() {
    rememberWelcomeSeen(userId);
    setOpen(false);
  }

  return (
    <Dialog
      open={open}
      onClose={close}
      title={`Welcome to ${bankName}, ${firstName}`}
      description={
        <>
          <p>This is your dashboard. It shows your accounts with their balances, what came in and went out this month, and your latest transactions.</p>
          <p>It keeps itself up to date: when money moves, you see it here without reloading.</p>
        </>
      }
      footer={
        <Button onClick={close} data-autofocus>
          Get started
        </Button>
      }
    />
  );
}
