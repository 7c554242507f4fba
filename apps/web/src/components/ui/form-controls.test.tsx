import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Checkbox } from './checkbox.tsx';
import { SelectField } from './select-field.tsx';
import { Switch } from './switch.tsx';
import { TextField } from './text-field.tsx';

describe('TextField', () => {
  it('ties its label to the input', () => {
    render(<TextField label="Email" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.getAttribute('aria-describedby')).toBeNull();
  });

  it('marks the input invalid and describes it by its hint and its error message', () => {
    render(<TextField label="Email" hint="We send receipts here." error="email is not valid" />);
    const input = screen.getByRole('textbox', { name: 'Email' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (input.getAttribute('aria-describedby') ?? '').split(' ');
    const texts = describedBy.map((id) => document.getElementById(id)?.textContent);
    expect(texts).toEqual(['We send receipts here.', 'email is not valid']);
  });

  it('can keep a hidden line for its error, so the fields below do not move when the message appears', () => {
    const { container, rerender } = render(<TextField label="Confirm password" reserveErrorSpace />);
    const reserved = container.querySelector('.field__error');
    expect(reserved?.getAttribute('aria-hidden')).toBe('true');
    expect(reserved?.className).toContain('field__error--reserved');
    expect(screen.getByRole('textbox', { name: 'Confirm password' }).getAttribute('aria-describedby')).toBeNull();
    rerender(<TextField label="Confirm password" reserveErrorSpace error="passwords do not match" />);
    expect(container.querySelectorAll('.field__error')).toHaveLength(1);
    expect(container.querySelector('.field__error--reserved')).toBeNull();
    expect(screen.getByText('passwords do not match').className).toBe('field__error-text');
  });

  it('says "(required)" after the label when asked, and "(optional)" for optional fields', () => {
    render(
      <>
        <TextField label="Message" requiredMark />
        <TextField label="Nickname" optional />
      </>,
    );
    // jsdom joins the label's parts without the space a browser keeps between them.
    expect(screen.getByRole('textbox', { name: /^Message ?\(required\)$/ })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: /^Nickname ?\(optional\)$/ })).toBeTruthy();
  });
});

describe('SelectField and Checkbox', () => {
  it('label their controls and wire their errors the same way', () => {
    render(
      <>
        <SelectField label="Card network" placeholder="Choose" options={[{ value: 'visa', label: 'Visa Card' }]} error="field should not be empty" />
        <Checkbox label="I accept the terms" error="please accept the terms and conditions" />
      </>,
    );
    const select = screen.getByRole('combobox', { name: 'Card network' });
    expect(select.getAttribute('aria-invalid')).toBe('true');
    const checkbox = screen.getByRole('checkbox', { name: 'I accept the terms' });
    expect(document.getElementById(checkbox.getAttribute('aria-describedby') ?? '')?.textContent).toContain('please accept');
  });
});

function SwitchHarness() {
  const [checked, setChecked] = useState(false);
  return <Switch label="Newsletter" checked={checked} onCheckedChange={setChecked} />;
}

describe('Switch', () => {
  it('is a named switch that toggles with Space and with its label', async () => {
    const user = userEvent.setup();
    render(<SwitchHarness />);
    const control = screen.getByRole('switch', { name: 'Newsletter' });
    expect(control.getAttribute('aria-checked')).toBe('false');
    control.focus();
    await user.keyboard(' ');
    expect(control.getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByText('Newsletter'));
    expect(control.getAttribute('aria-checked')).toBe('false');
  });
});
