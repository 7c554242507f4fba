import { stat } from 'node:fs/promises';
import path from 'node:path';
import { dataScopes } from '@strongroom/contracts/connected-apps.ts';
import { describe, expect, it } from 'vitest';
import { productionEnvironment, testConfig, type LogCapture } from '../../test/app.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { testAppSuite } from '../../test/suite.ts';
import { budgetAppKeyFileName, loadBudgetAppKey } from './app-key.ts';
import { seedSandboxBudgetApp } from './seed.ts';

interface RecipientRow {
  id: string;
  client_id: string;
  name: string;
  redirect_uris: string[];
  allowed_scopes: string[];
  jwks: { keys: Record<string, unknown>[] };
  enabled: boolean;
}

describeEachDatabase('the sandbox’s budgeting app, Pennywise', (database) => {
  let logs: LogCapture;
  const suite = testAppSuite(database, (built) => {
    logs = built.logs;
  });

  async function pennywiseRows(): Promise<RecipientRow[]> {
    return database().query<RecipientRow>(
      "SELECT id, client_id, name, redirect_uris, allowed_scopes, jwks, enabled FROM data_recipients WHERE client_id = 'sandbox-budget-app'",
    );
  }

  it('a sandbox start registers Pennywise as an enabled data recipient with every data cluster, its callback and the public half of its own key', async () => {
    const { config } = suite();
    await seedSandboxBudgetApp(database(), config);
    const [row] = await pennywiseRows();
    expect(row).toMatchObject({
      name: 'Pennywise (sandbox)',
      redirect_uris: [`${config.publicUrl}/sandbox/budget-app/callback`],
      allowed_scopes: [...dataScopes],
      enabled: true,
    });
    const [publicKey] = row?.jwks.keys ?? [];
    expect(publicKey).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(publicKey).not.toHaveProperty('d');
    const key = await loadBudgetAppKey(config.dataDirectory);
    expect(publicKey).toEqual(key.publicJwk);
  });

  it('the key is kept owner-only in DATA_DIR and reused: a second start changes neither the key nor the recipient', async () => {
    const { config } = suite();
    await seedSandboxBudgetApp(database(), config);
    const [before] = await pennywiseRows();
    const file = path.join(config.dataDirectory, budgetAppKeyFileName);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    await seedSandboxBudgetApp(database(), config);
    const after = await pennywiseRows();
    expect(after).toHaveLength(1);
    expect(after[0]?.id).toBe(before?.id);
    expect(after[0]?.jwks).toEqual(before?.jwks);
  });

  it('an app staff disabled stays disabled after a restart, with its callback brought up to date', async () => {
    const { config } = suite();
    await seedSandboxBudgetApp(database(), config);
    await database().query(
      "UPDATE data_recipients SET enabled = false, redirect_uris = ARRAY['http://127.0.0.1:1/old'] WHERE client_id = 'sandbox-budget-app'",
    );
    await seedSandboxBudgetApp(database(), config);
    const [row] = await pennywiseRows();
    expect(row?.enabled).toBe(false);
    expect(row?.redirect_uris).toEqual([`${config.publicUrl}/sandbox/budget-app/callback`]);
    await database().query("UPDATE data_recipients SET enabled = true WHERE client_id = 'sandbox-budget-app'");
  });

  it('production registers no budgeting app and writes no key', async () => {
    const production = await testConfig({ ...productionEnvironment });
    const before = await pennywiseRows();
    await seedSandboxBudgetApp(database(), production);
    expect(await pennywiseRows()).toEqual(before);
    await expect(stat(path.join(production.dataDirectory, budgetAppKeyFileName))).rejects.toThrow(/ENOENT/);
  });

  describe('its pages', () => {
    it('the home page says what the app is and offers to connect with a plain form, under the bank’s CSP with no inline script or style', async () => {
      const { app } = suite();
      const home = await app.inject({ method: 'GET', url: '/sandbox/budget-app/' });
      expect(home.statusCode).toBe(200);
      expect(home.headers['content-type']).toMatch(/^text\/html/);
      expect(home.headers['content-security-policy']).toContain("script-src 'self'");
      expect(home.headers['cache-control']).toBe('no-store');
      expect(home.body).toContain('a fictional budgeting app of the sandbox, to try connected apps');
      const text = home.body.replace(/\s+/g, ' ');
      expect(text).toContain(
        '<form method="post" action="/sandbox/budget-app/start"> <button class="button" type="submit">Connect your Strongroom account</button> </form>',
      );
      expect(text).toContain('<link rel="stylesheet" href="/sandbox/budget-app/styles.css" />');
      expect(home.body).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);

      // The address the sandbox prints at start, without the trailing slash, is the same page.
      expect((await app.inject({ method: 'GET', url: '/sandbox/budget-app' })).body).toBe(home.body);

      const styles = await app.inject({ method: 'GET', url: '/sandbox/budget-app/styles.css' });
      expect(styles.statusCode).toBe(200);
      expect(styles.headers['content-type']).toMatch(/^text\/css/);
      expect(styles.body).toContain('.button');
    });

    it('refresh without a connection says Pennywise is not connected and offers to connect', async () => {
      const { app } = suite();
      const page = await app.inject({ method: 'GET', url: '/sandbox/budget-app/refresh', cookies: { pennywise_session: 'made-up' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Pennywise is not connected yet');
      expect(page.body).toContain('action="/sandbox/budget-app/start"');
    });

    it('a callback this browser did not start is refused and exchanges nothing, and its code never reaches the log', async () => {
      const { app } = suite();
      const page = await app.inject({ method: 'GET', url: '/sandbox/budget-app/callback?code=stolen-code-3f9a&state=guessed&iss=x' });
      expect(page.statusCode).toBe(400);
      expect(page.body).toContain('This connection was not started in this browser, or it took too long. Start again.');
      expect(page.body).not.toContain('stolen');
      expect(logs.text).toContain('/sandbox/budget-app/callback?code=[redacted]');
      expect(logs.text).not.toContain('stolen-code-3f9a');
    });

    it('a connect post that is not the app’s own form (JSON from a script) is refused before anything starts', async () => {
      const { app } = suite();
      const response = await app.inject({ method: 'POST', url: '/sandbox/budget-app/start', payload: {} });
      expect(response.statusCode).toBe(415);
      expect(response.headers['set-cookie']).toBeUndefined();
    });

    it('a connect post larger than the app’s own empty form is refused before anything starts', async () => {
      const { app } = suite();
      const response = await app.inject({
        method: 'POST',
        url: '/sandbox/budget-app/start',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: `x=${'a'.repeat(2048)}`,
      });
      expect(response.statusCode).toBe(413);
      expect(response.headers['set-cookie']).toBeUndefined();
    });
  });
});
