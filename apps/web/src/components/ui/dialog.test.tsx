import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Button } from './button.tsx';
import { Dialog } from './dialog.tsx';
import { ErrorDialog } from './error-dialog.tsx';

function DialogHarness({ dismissible = true }: { dismissible?: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open details</Button>
      <Dialog
        open={open}
        onClose={() => setOpen(false)}
        title="Details"
        dismissible={dismissible}
        footer={<Button onClick={() => setOpen(false)}>Done</Button>}
      >
        <p>Amount $10.00</p>
      </Dialog>
    </>
  );
}

describe('Dialog', () => {
  it('is named by its title and moves focus inside when it opens', async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    await user.click(screen.getByRole('button', { name: 'Open details' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('closes on Esc and gives focus back to the button that opened it', async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    const opener = screen.getByRole('button', { name: 'Open details' });
    await user.click(opener);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('ignores Esc while it shows work that cannot be interrupted', async () => {
    const user = userEvent.setup();
    render(<DialogHarness dismissible={false} />);
    await user.click(screen.getByRole('button', { name: 'Open details' }));
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Details' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
  });
});

describe('ErrorDialog', () => {
  it('shows the message as an alert dialog with a Close button that has focus', async () => {
    const user = userEvent.setup();
    let closed = false;
    render(<ErrorDialog message="network error" onClose={() => (closed = true)} />);
    const dialog = screen.getByRole('alertdialog', { name: 'Something went wrong' });
    expect(dialog.textContent).toContain('network error');
    const closeButtons = screen.getAllByRole('button', { name: 'Close' });
    expect(closeButtons).toContain(document.activeElement);
    await user.keyboard('{Enter}');
    expect(closed).toBe(true);
  });

  it('renders nothing without a message', () => {
    render(<ErrorDialog message={null} onClose={() => undefined} />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps Tab and Shift+Tab among its own controls', async () => {
    const user = userEvent.setup();
    render(<DialogHarness />);
    await user.click(screen.getByRole('button', { name: 'Open details' }));
    const dialog = screen.getByRole('dialog', { name: 'Details' });
    const close = screen.getByRole('button', { name: 'Close' });
    const done = screen.getByRole('button', { name: 'Done' });
    done.focus();
    await user.tab();
    expect(document.activeElement).toBe(close);
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(done);
    expect(dialog.contains(document.activeElement)).toBe(true);
  });

  it('gives the focus to the page heading when it opened with the page and closes', async () => {
    const user = userEvent.setup();
    function OpenWithThePage() {
      const [open, setOpen] = useState(true);
      return (
        <main>
          <h1>Your dashboard</h1>
          <Dialog open={open} onClose={() => setOpen(false)} title="Welcome" footer={<Button onClick={() => setOpen(false)}>Get started</Button>} />
        </main>
      );
    }
    render(<OpenWithThePage />);
    await user.click(screen.getByRole('button', { name: 'Get started' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1, name: 'Your dashboard' }));
  });
});
