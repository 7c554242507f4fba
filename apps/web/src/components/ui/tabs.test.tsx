import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Tabs } from './tabs.tsx';

const items = [
  { id: 'mine', label: 'My Bank', panel: <p>Payees at this bank</p> },
  { id: 'other', label: 'Other Bank', panel: <p>Payees at other banks</p> },
  { id: 'cards', label: 'Cards', panel: <p>Saved cards</p> },
];

describe('Tabs', () => {
  it('is one tab stop: only the selected tab is in the tab order', () => {
    render(<Tabs label="Beneficiaries" items={items} />);
    const tabs = screen.getAllByRole('tab');
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1]);
    expect(screen.getByRole('tabpanel', { name: 'My Bank' }).textContent).toBe('Payees at this bank');
  });

  it('moves and selects with the arrow keys, wrapping at the ends, and jumps with Home and End', async () => {
    const user = userEvent.setup();
    render(<Tabs label="Beneficiaries" items={items} />);
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'My Bank' }));

    await user.keyboard('{ArrowRight}');
    const other = screen.getByRole('tab', { name: 'Other Bank' });
    expect(document.activeElement).toBe(other);
    expect(other.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Other Bank' }).textContent).toBe('Payees at other banks');

    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'Cards' }));

    await user.keyboard('{Home}');
    expect(document.activeElement).toBe(screen.getByRole('tab', { name: 'My Bank' }));
    await user.keyboard('{End}');
    expect(screen.getByRole('tab', { name: 'Cards' }).getAttribute('aria-selected')).toBe('true');
  });
});
