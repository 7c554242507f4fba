import { dataExportPath } from '@strongroom/contracts/data-export.ts';
import { resultMessages } from '@strongroom/contracts/messages.ts';
import { apiUrl, isRecord } from '../../../lib/api-client.ts';

export type ExportOutcome =
  | { kind: 'downloaded'; fileName: string }
  | { kind: 'rate_limited'; retryAfterSeconds: number | null }
  | { kind: 'signed_out' }
  | { kind: 'failed'; message: string };

/** `attachment; filename="my-data-2026-11-24.zip"` -> the name; a fallback when the header has none. */
export function fileNameOf(contentDisposition: string | null): string {
  const match = /filename="([^"]+)"/.exec(contentDisposition ?? '');
  return match?.[1] ?? 'my-data.zip';
}

async function errorMessageOf(response: Response): Promise<string> {
  try {
    const payload: unknown = await response.json();
    const error = isRecord(payload) ? payload.error : undefined;
    if (isRecord(error) && typeof error.message === 'string') return error.message;
  } catch {
    // Not the API's JSON (a proxy's page): the status is all there is.
  }
  return `The server answered with status ${response.status}`;
}

/**
 * Asks for the zip with the session cookie (a GET: no CSRF token) and hands it to the browser's
 * downloads, so that a refusal (the hourly limit, a session that ended) can be said in the page
 * instead of the browser showing the API's JSON as a file or a page.
 */
export async function downloadDataExport(): Promise<ExportOutcome> {
  let response: Response;
  try {
    response = await fetch(apiUrl(dataExportPath), { credentials: 'same-origin', headers: { accept: 'application/zip, application/json' } });
  } catch {
    return { kind: 'failed', message: resultMessages.networkError };
  }
  if (response.status === 429) {
    const seconds = Number(response.headers.get('retry-after') ?? Number.NaN);
    return { kind: 'rate_limited', retryAfterSeconds: Number.isInteger(seconds) && seconds >= 0 ? seconds : null };
  }
  if (response.status === 401) return { kind: 'signed_out' };
  if (!response.ok) return { kind: 'failed', message: await errorMessageOf(response) };

  const fileName = fileNameOf(response.headers.get('content-disposition'));
  const blob = await response.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the page's is released on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return { kind: 'downloaded', fileName };
}

/** "in 59 minutes", "in 1 minute", "in a few seconds". */
export function waitWords(seconds: number | null): string {
  if (seconds === null) return 'later';
  if (seconds < 60) return 'in less than a minute';
  const minutes = Math.ceil(seconds / 60);
  return minutes === 1 ? 'in 1 minute' : `in ${minutes} minutes`;
}
