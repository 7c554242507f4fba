import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { dataExportFiles, dataExportNotYet } from '@strongroom/contracts/data-export.ts';
import { ExportDataSection } from './export-data-section.tsx';
import { fileNameOf, waitWords } from './download-export.ts';

const fetchMock = vi.fn<typeof fetch>();
const createObjectURL = vi.fn(() => 'blob:export');
const revokeObjectURL = vi.fn();
let clicked: { href: string; download: string }[] = [];

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL }));
  clicked = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.getAttribute('href') ?? '', download: this.download });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  fetchMock.mockReset();
});

function zipAnswer(): Response {
  return new Response(new Uint8Array([0x50, 0x4b, 0x03, 0x04]), {
    status: 200,
    headers: { 'content-type': 'application/zip', 'content-disposition': 'attachment; filename="my-data-2026-11-24.zip"' },
  });
}

function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json', ...headers } });
}

async function clickDownload() {
  await userEvent.click(screen.getByRole('button', { name: 'Download your data' }));
}

describe('Download your data', () => {
  it('says what the zip holds, file by file, and what it never holds', () => {
    render(<ExportDataSection />);
    const section = screen.getByRole('region', { name: 'Download your data' });
    for (const file of dataExportFiles) expect(section.textContent).toContain(file.summary);
    for (const name of [
      'profile.json',
      'accounts.json',
      'accounts/(account number)/transactions.csv',
      'loans.json',
      'cards.json',
      'linked-banks.json',
      'referrals.json',
      'notifications.json',
      'messages.json',
      'audit.json',
    ])
      expect(within(section).getByText(name).tagName).toBe('CODE');
    expect(section.textContent).toContain('Never included: your password, full card numbers');
    expect(section.textContent).toContain('the full account numbers of banks you linked');
    expect(section.textContent).toContain(dataExportNotYet);
    expect(section.textContent).toContain('Card disputes and scheduled payments are not in the export');
    expect(section.textContent).toContain('3 times an hour');
  });

  it('downloads the zip with the session cookie under the name the server gave it', async () => {
    fetchMock.mockResolvedValueOnce(zipAnswer());
    render(<ExportDataSection />);
    await clickDownload();
    expect((await screen.findByRole('status')).textContent).toContain('Your data is downloading as my-data-2026-11-24.zip');
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/me/export', expect.objectContaining({ credentials: 'same-origin' }));
    expect(clicked).toEqual([{ href: 'blob:export', download: 'my-data-2026-11-24.zip' }]);
    await vi.waitFor(() => expect(revokeObjectURL).toHaveBeenCalledWith('blob:export'));
  });

  it('shows the button busy while the zip is prepared', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockReturnValueOnce(new Promise<Response>((resolve) => (answer = resolve)));
    render(<ExportDataSection />);
    await clickDownload();
    const busy = screen.getByRole('button', { name: /Preparing your data/ });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    answer(zipAnswer());
    expect(((await screen.findByRole('button', { name: 'Download your data' })) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says when the hourly limit is reached and when to come back, downloading nothing', async () => {
    fetchMock.mockResolvedValueOnce(errorAnswer(429, 'rate_limited', 'You can download your data 3 times an hour; try again later', { 'retry-after': '1790' }));
    render(<ExportDataSection />);
    await clickDownload();
    expect((await screen.findByRole('alert')).textContent).toContain(
      'You have downloaded your data 3 times in the last hour. You can download it again in 30 minutes.',
    );
    expect(clicked).toEqual([]);
  });

  it('asks to sign in again when the session has ended', async () => {
    fetchMock.mockResolvedValueOnce(errorAnswer(401, 'unauthenticated', 'Sign in first'));
    render(<ExportDataSection />);
    await clickDownload();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your session has ended.');
    expect(within(alert).getByRole('link', { name: 'Sign in again' }).getAttribute('href')).toBe('/login');
  });

  it("says the server's message on another failure, and a network failure, and lets the customer try again", async () => {
    fetchMock.mockResolvedValueOnce(errorAnswer(500, 'internal_error', 'Something went wrong on our side'));
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    fetchMock.mockResolvedValueOnce(zipAnswer());
    render(<ExportDataSection />);
    await clickDownload();
    expect((await screen.findByRole('alert')).textContent).toContain('Your data could not be downloaded: Something went wrong on our side. Please try again.');
    await clickDownload();
    expect((await screen.findByRole('alert')).textContent).toContain('Your data could not be downloaded: network error.');
    await clickDownload();
    expect((await screen.findByRole('status')).textContent).toContain('my-data-2026-11-24.zip');
  });
});

describe('download helpers', () => {
  it('reads the file name from Content-Disposition, with a fallback', () => {
    expect(fileNameOf('attachment; filename="my-data-2026-01-02.zip"')).toBe('my-data-2026-01-02.zip');
    expect(fileNameOf(null)).toBe('my-data.zip');
  });

  it('words the wait in minutes, rounded up', () => {
    expect(waitWords(3_600)).toBe('in 60 minutes');
    expect(waitWords(61)).toBe('in 2 minutes');
    expect(waitWords(60)).toBe('in 1 minute');
    expect(waitWords(5)).toBe('in less than a minute');
    expect(waitWords(null)).toBe('later');
  });
});
