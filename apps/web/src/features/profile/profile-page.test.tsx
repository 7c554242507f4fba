import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { queryClient } from '../../lib/query-client.ts';
import { renderApp, signedIn } from '../../test/render-app.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  queryClient.clear();
});

describe('/profile', () => {
  it('shows the name, email and phone, and the seed’s five cards to their screens', async () => {
    renderApp('/profile', { 'GET /api/v1/me': signedIn });
    expect(await screen.findByRole('heading', { level: 2, name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByText('ada@example.com')).toBeTruthy();
    expect(screen.getByText('+12025550101')).toBeTruthy();
    const cards = screen.getByRole('navigation', { name: 'Your profile' });
    const targets = within(cards)
      .getAllByRole('link')
      .map((link) => [link.querySelector('.profile__card-title')?.textContent, link.getAttribute('href')]);
    expect(targets).toEqual([
      ['Account', '/settings'],
      ['Payment Method', '/deposit'],
      ['Notification', '/notifications'],
      ['Terms and conditions', '/privacy'],
      ['Support', '/contact'],
    ]);
  });

  it('shows the photo in the profile and in the header once there is one', async () => {
    const withPhoto = { status: 200, body: { ...signedIn.body, user: { ...signedIn.body.user, profilePhotoUrl: '/api/v1/files/photo-1' } } };
    renderApp('/profile', { 'GET /api/v1/me': withPhoto });
    expect((await screen.findByRole('img', { name: 'Your profile photo' })).getAttribute('src')).toBe('/api/v1/files/photo-1');
    expect(screen.getByRole('link', { name: 'Open your profile' }).querySelector('img')?.getAttribute('src')).toBe('/api/v1/files/photo-1');
  });

  it('asks for a file before uploading a new photo, and Cancel closes the dialog', async () => {
    const user = userEvent.setup();
    renderApp('/profile', { 'GET /api/v1/me': signedIn });
    await user.click(await screen.findByRole('button', { name: 'Change photo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your photo' });
    await user.click(within(dialog).getByRole('button', { name: 'Save photo' }));
    expect(await within(dialog).findByText('Choose an image to upload')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Change your photo' })).toBeNull());
  });
});
