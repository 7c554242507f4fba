import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Button } from './button.tsx';
import { ToastProvider, toastDurationMs, useToast } from './toast.tsx';

function CopyButton() {
  const toast = useToast();
  return <Button onClick={() => toast.show('Referral link copied')}>Copy</Button>;
}

afterEach(() => vi.useRealTimers());

describe('Toast', () => {
  it('announces its message through a polite live region that exists before the first toast', async () => {
    const user = userEvent.setup();
    render(
      <ToastProvider>
        <CopyButton />
      </ToastProvider>,
    );
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(region.textContent).toContain('Referral link copied');
    await user.click(screen.getByRole('button', { name: 'Dismiss notification' }));
    expect(region.textContent).toBe('');
  });

  it('goes away by itself after a while', () => {
    vi.useFakeTimers();
    render(
      <ToastProvider>
        <CopyButton />
      </ToastProvider>,
    );
    act(() => screen.getByRole('button', { name: 'Copy' }).click());
    expect(screen.getByText('Referral link copied')).toBeTruthy();
    act(() => vi.advanceTimersByTime(toastDurationMs));
    expect(screen.queryByText('Referral link copied')).toBeNull();
  });
});
