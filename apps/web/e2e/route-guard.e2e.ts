import { describe, expect, inject, it } from 'vitest';
import { expectNoAxeViolations, openPage, useBrowser } from './support/browser.ts';

describe.skipIf(!inject('chromiumPath'))('signing in', () => {
  const browser = useBrowser();

  it('shows the sign-in screen at /dashboard to a visitor who is signed out, keeping the address', async () => {
    const { context, page } = await openPage(browser());
    const response = await page.goto('/dashboard');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { level: 1, name: 'Sign in to online banking' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.getByText('Sandbox: no real money').isVisible()).toBe(true);
    await expectNoAxeViolations(page);
    await context.close();
  });

  it('turns the Sign in button on only when the email and password are valid, and links to sign-up and recovery', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/login');
    const signIn = page.getByRole('button', { name: 'Sign in', exact: true });
    expect(await signIn.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example');
    await page.getByLabel('Password').fill('any password');
    expect(await signIn.isDisabled()).toBe(true);
    await page.getByRole('textbox', { name: 'Email' }).fill('ada@example.com');
    expect(await signIn.isDisabled()).toBe(false);
    expect(await page.getByRole('link', { name: 'Create an account' }).getAttribute('href')).toBe('/signup');
    expect(await page.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/forgetpassword');
    await expectNoAxeViolations(page);
    await context.close();
  });

  it('shows the server’s message when the email and password do not match an account', async () => {
    const { context, page } = await openPage(browser());
    await page.goto('/login');
    await page.getByRole('textbox', { name: 'Email' }).fill('nobody.e2e@example.com');
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Sign-in failed' });
    await dialog.waitFor();
    expect((await dialog.textContent())?.length).toBeGreaterThan(20);
    await dialog.getByRole('button', { name: 'Close' }).last().click();
    await dialog.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('signs the sandbox demo customer in where they wanted to go, and signs them out again', async () => {
    const { context, page, problems } = await openPage(browser());
    await page.goto('/home');
    await page.getByRole('button', { name: 'Fill in the demo sign-in' }).click();
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Your dashboard' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/home');
    expect(await page.getByText(/^Good (morning|afternoon|evening|night), Dana$/).isVisible()).toBe(true);
    // A first visit in this browser opens the welcome dialog.
    await page.getByRole('dialog').getByRole('button', { name: 'Get started' }).click();
    await expectNoAxeViolations(page);

    await page.getByRole('navigation', { name: 'Online banking' }).getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('heading', { level: 1, name: 'Sign in to online banking' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    // Signed out for real: the customer area asks for a sign-in again.
    await page.goto('/dashboard');
    await page.getByRole('heading', { level: 1, name: 'Sign in to online banking' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
