import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Accordion } from './accordion.tsx';

const items = [
  { id: 'a', title: 'How do I open an account?', content: <p>Sign up online.</p> },
  { id: 'b', title: 'How long does a transfer take?', content: <p>ACH takes 3 to 5 business days.</p> },
  { id: 'c', title: 'How do I reach a person?', content: <p>Write to us.</p> },
];

describe('Accordion', () => {
  it('renders each title as a collapsed button inside a heading, controlling its hidden region', () => {
    render(<Accordion items={items} headingLevel={2} />);
    const button = screen.getByRole('button', { name: 'How do I open an account?' });
    expect(button.closest('h2')).not.toBeNull();
    expect(button.getAttribute('aria-expanded')).toBe('false');
    const region = document.getElementById(button.getAttribute('aria-controls') ?? '');
    expect(region?.hidden).toBe(true);
    expect(region?.getAttribute('role')).toBe('region');
  });

  it('opens and closes with Enter and Space, and several can be open at once', async () => {
    const user = userEvent.setup();
    render(<Accordion items={items} />);
    await user.tab();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('region', { name: 'How do I open an account?' }).textContent).toBe('Sign up online.');

    await user.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'How long does a transfer take?' }));
    await user.keyboard(' ');
    expect(screen.getAllByRole('region')).toHaveLength(2);

    await user.keyboard(' ');
    expect(screen.getByRole('button', { name: 'How long does a transfer take?' }).getAttribute('aria-expanded')).toBe('false');
  });

  it('moves between titles with Up, Down, Home and End, wrapping around', async () => {
    const user = userEvent.setup();
    render(<Accordion items={items} />);
    await user.tab();
    await user.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'How do I reach a person?' }));
    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'How do I open an account?' }));
    await user.keyboard('{End}{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'How do I open an account?' }));
  });
});
