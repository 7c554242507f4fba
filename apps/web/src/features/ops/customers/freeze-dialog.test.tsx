import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { freezeCustomerMessageErrors, freezeCustomerMessages } from '@strongroom/contracts/staff-customers.ts';
import { FreezeDialog } from './freeze-dialog.tsx';

function renderDialog() {
  const onConfirm = vi.fn();
  const onClose = vi.fn();
  render(
    <FreezeDialog
      open
      title="Freeze Ada Lovelace"
      consequence="All of Ada Lovelace's sessions end now."
      confirmLabel="Freeze Ada Lovelace"
      busy={false}
      onConfirm={onConfirm}
      onClose={onClose}
    />,
  );
  const dialog = screen.getByRole('dialog', { name: 'Freeze Ada Lovelace' });
  return {
    dialog,
    onConfirm,
    onClose,
    reason: within(dialog).getByLabelText(/^Internal reason/),
    message: within(dialog).getByLabelText(/^What the customer sees/),
    confirm: within(dialog).getByRole('button', { name: 'Freeze Ada Lovelace' }),
  };
}

const review = freezeCustomerMessages.find((item) => item.id === 'review');
if (!review) throw new Error('no review message');

describe('the freeze dialog', () => {
  it('offers every message of the list, and choosing one puts its words in the box the customer will read', async () => {
    const user = userEvent.setup();
    const { dialog, message } = renderDialog();
    const choices = within(dialog).getAllByRole('radio');
    expect(choices).toHaveLength(freezeCustomerMessages.length);
    expect(choices.every((choice) => !(choice as HTMLInputElement).checked)).toBe(true);
    expect((message as HTMLTextAreaElement).value).toBe('');

    await user.click(within(dialog).getByRole('radio', { name: new RegExp(review.label) }));
    expect((message as HTMLTextAreaElement).value).toBe(review.text);
    const records = freezeCustomerMessages.find((item) => item.id === 'records');
    await user.click(within(dialog).getByRole('radio', { name: new RegExp(records?.label ?? '') }));
    expect((message as HTMLTextAreaElement).value).toBe(records?.text);
  });

  it('asks for both texts before anything is sent: the internal reason and the message to the customer', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm, confirm } = renderDialog();
    await user.click(confirm);
    expect(within(dialog).getByText('field should not be empty')).toBeTruthy();
    expect(within(dialog).getByText(freezeCustomerMessageErrors.missing)).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('refuses a message cut too short, and says so at the message', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm, reason, message, confirm } = renderDialog();
    await user.type(reason, 'Checking source of funds');
    await user.type(message, 'Paused.');
    await user.click(confirm);
    expect(within(dialog).getByText(freezeCustomerMessageErrors.tooShort)).toBeTruthy();
    expect(message.getAttribute('aria-invalid')).toBe('true');
    expect(onConfirm).not.toHaveBeenCalled();
  });

  it('sends the internal reason and the chosen message as edited, on one line', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm, reason, message, confirm } = renderDialog();
    await user.type(reason, 'Checking source of funds, ticket 4411');
    await user.click(within(dialog).getByRole('radio', { name: new RegExp(review.label) }));
    await user.type(message, '{Enter}Thank you for your patience.');
    expect(within(dialog).getByText(new RegExp(`edited from “${review.label}”`))).toBeTruthy();
    await user.click(confirm);
    expect(onConfirm).toHaveBeenCalledWith({
      reason: 'Checking source of funds, ticket 4411',
      customerMessage: `${review.text} Thank you for your patience.`,
    });
  });

  it('counts the message against its limit, and refuses one over it that got past the box (pasted by a script)', async () => {
    const user = userEvent.setup();
    const { dialog, onConfirm, reason, message, confirm } = renderDialog();
    expect(message.getAttribute('maxlength')).toBe('300');
    await user.click(within(dialog).getByRole('radio', { name: new RegExp(review.label) }));
    expect(within(dialog).getByText(new RegExp(`${review.text.length} / 300 characters`))).toBeTruthy();
    await user.type(reason, 'Checking source of funds');
    fireEvent.change(message, { target: { value: 'We are reviewing. '.repeat(20) } });
    await user.click(confirm);
    expect(within(dialog).getByText(freezeCustomerMessageErrors.tooLong)).toBeTruthy();
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
