import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hasConfirmedTotp } from '../../platform/second-factors.ts';
import { insertBareCustomer } from '../../test/customers.ts';
import { describeEachDatabase } from '../../test/databases.ts';
import { hasPasskey } from '../passkeys/service.ts';
import { stepUpMethodsOf } from './service.ts';

describeEachDatabase('step-up methods', (database) => {
  async function customerWithPasskey(): Promise<string> {
    const customerId = await insertBareCustomer(database());
    await database().query(
      `INSERT INTO passkeys (customer_id, credential_id, public_key, device_type, backed_up, aaguid, name)
       VALUES ($1, $2, $3, 'singleDevice', false, '00000000-0000-0000-0000-000000000000', 'Laptop')`,
      [customerId, randomBytes(16).toString('base64url'), randomBytes(32)],
    );
    return customerId;
  }

  describe('are the ones the app gives, whatever was imported', () => {
    it('offers a passkey only when the passkey method is given, though the passkeys module is loaded', async () => {
      const customerId = await customerWithPasskey();
      expect(await stepUpMethodsOf({ methods: {} }, database(), customerId)).toEqual(['sms']);
      expect(await stepUpMethodsOf({ methods: { totp: hasConfirmedTotp } }, database(), customerId)).toEqual(['sms']);
      expect(await stepUpMethodsOf({ methods: { totp: hasConfirmedTotp, passkey: hasPasskey } }, database(), customerId)).toEqual(['passkey', 'sms']);
    });

    it('lists them best first (passkey, then the app), with SMS always last', async () => {
      const customerId = await customerWithPasskey();
      const always = async () => true;
      expect(await stepUpMethodsOf({ methods: { totp: always, passkey: hasPasskey } }, database(), customerId)).toEqual(['passkey', 'totp', 'sms']);
      const without = await insertBareCustomer(database());
      expect(await stepUpMethodsOf({ methods: { totp: hasConfirmedTotp, passkey: hasPasskey } }, database(), without)).toEqual(['sms']);
    });
  });
});
