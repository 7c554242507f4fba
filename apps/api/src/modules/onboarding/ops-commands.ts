import { parseArgs } from 'node:util';
import { OpsUsageError, ok, type OpsCommand } from '../../platform/ops-command.ts';
import { storageFor } from '../../platform/storage.ts';
import { createOnboardedCustomer, CustomerExistsError } from './create-onboarded-customer.ts';

const maximumFundingCents = 100_000_000_000n;

export const createCustomerCommand: OpsCommand = {
  name: 'create-customer',
  summary: 'Create an onboarded customer with checking and savings; fund checking from capital',
  usage: 'create-customer --email E --password P [--phone +12025550100] [--first-name F] [--last-name L] --fund-cents N',
  async run({ database, config }, args) {
    const { values } = parseArgs({
      args,
      options: {
        email: { type: 'string' },
        password: { type: 'string' },
        phone: { type: 'string' },
        'first-name': { type: 'string' },
        'last-name': { type: 'string' },
        'fund-cents': { type: 'string' },
      },
      strict: true,
    });
    if (!values.email || !values.password) throw new OpsUsageError('--email and --password are required');
    if (values.phone && !/^\+[1-9]\d{6,14}$/.test(values.phone)) throw new OpsUsageError('--phone must be an E.164 number such as +12025550100');
    const fundText = values['fund-cents'] ?? '0';
    if (!/^\d{1,15}$/.test(fundText) || BigInt(fundText) > maximumFundingCents) throw new OpsUsageError('--fund-cents must be a whole number of cents');
    const db = await database();
    try {
      const customer = await createOnboardedCustomer(
        { db, storage: storageFor(config), encryptionKey: config.secrets.encryptionKey },
        {
          email: values.email,
          password: values.password,
          phone: values.phone,
          firstName: values['first-name'],
          lastName: values['last-name'],
          fundCents: BigInt(fundText),
        },
      );
      return ok({ userId: customer.userId, accounts: customer.accounts.map(({ id, type, number }) => ({ id, type, number })) });
    } catch (error) {
      if (error instanceof CustomerExistsError) return { exitCode: 1, output: error.message };
      if (error instanceof Error && error.message.startsWith('The password')) throw new OpsUsageError(error.message);
      throw error;
    }
  },
};
