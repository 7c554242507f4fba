import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MessageText } from './dev-mail-page.tsx';

describe('the sandbox inbox', () => {
  it('shows the web addresses of a message as links, without the punctuation that follows them', () => {
    const text = 'Confirm your email: http://localhost:3000/verify/abc-123.\nOr open https://bank.example.com/login?next=%2Fcard, then sign in.';
    const { container } = render(<MessageText text={text} />);
    const links = screen.getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['http://localhost:3000/verify/abc-123', 'https://bank.example.com/login?next=%2Fcard']);
    expect(container.textContent).toBe(text);
  });

  it('leaves text without an http(s) address as text', () => {
    render(<MessageText text={'Your code is 123456. javascript:alert(1) is not a link.'} />);
    expect(screen.queryByRole('link')).toBeNull();
  });
});
