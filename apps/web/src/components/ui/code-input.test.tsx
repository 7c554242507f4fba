import { useState } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CodeInput } from './code-input.tsx';

function Harness({ onComplete }: { onComplete: (code: string) => void }) {
  const [digits, setDigits] = useState<string[]>(['', '', '', '']);
  return <CodeInput label="Code from the SMS" digits={digits} onDigitsChange={setDigits} onComplete={onComplete} error="That code is not right." />;
}

function boxes(): HTMLInputElement[] {
  return [1, 2, 3, 4].map((position) => screen.getByRole<HTMLInputElement>('textbox', { name: `Digit ${position} of 4` }));
}

describe('CodeInput', () => {
  it('is a named group of four numeric boxes; the first offers the one-time code to autofill', () => {
    render(<Harness onComplete={() => undefined} />);
    expect(screen.getByRole('group', { name: 'Code from the SMS' })).toBeTruthy();
    const [first, second] = boxes();
    expect(first?.inputMode).toBe('numeric');
    expect(first?.autocomplete).toBe('one-time-code');
    expect(second?.autocomplete).toBe('off');
    const errorId = first?.getAttribute('aria-describedby') ?? '';
    expect(document.getElementById(errorId)?.textContent).toBe('That code is not right.');
    expect(first?.getAttribute('aria-invalid')).toBe('true');
  });

  it('moves to the next box with each digit typed and reports the whole code', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    const [first, second, third, fourth] = boxes();
    await user.click(first!);
    await user.keyboard('4');
    expect(document.activeElement).toBe(second);
    await user.keyboard('x');
    expect(second?.value).toBe('');
    await user.keyboard('27');
    expect(document.activeElement).toBe(fourth);
    expect(onComplete).not.toHaveBeenCalled();
    await user.keyboard('9');
    expect(boxes().map((box) => box.value)).toEqual(['4', '2', '7', '9']);
    expect(third?.value).toBe('7');
    expect(onComplete).toHaveBeenCalledWith('4279');
  });

  it('fills all four boxes from a pasted code, wherever it is pasted', async () => {
    const user = userEvent.setup();
    const onComplete = vi.fn();
    render(<Harness onComplete={onComplete} />);
    const [, , third, fourth] = boxes();
    await user.click(third!);
    await user.paste('Your code: 5 3 1 8');
    expect(boxes().map((box) => box.value)).toEqual(['5', '3', '1', '8']);
    expect(document.activeElement).toBe(fourth);
    expect(onComplete).toHaveBeenCalledWith('5318');
  });

  it('goes back with Backspace in an empty box, clearing the digit before, and moves with the arrow keys', async () => {
    const user = userEvent.setup();
    render(<Harness onComplete={() => undefined} />);
    const [first, second, third] = boxes();
    await user.click(first!);
    await user.keyboard('12');
    expect(document.activeElement).toBe(third);
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(second);
    expect(second?.value).toBe('');
    await user.keyboard('{Backspace}');
    expect(document.activeElement).toBe(first);
    expect(first?.value).toBe('');
    await user.keyboard('7{ArrowLeft}');
    expect(document.activeElement).toBe(first);
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(document.activeElement).toBe(third);
  });

  it('replaces a box’s digit when a new one is typed over it', async () => {
    const user = userEvent.setup();
    render(<Harness onComplete={() => undefined} />);
    const [first, second] = boxes();
    await user.click(first!);
    await user.keyboard('12');
    await user.click(first!);
    await user.keyboard('9');
    expect(first?.value).toBe('9');
    expect(second?.value).toBe('2');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Digit 3 of 4' }));
  });
});
