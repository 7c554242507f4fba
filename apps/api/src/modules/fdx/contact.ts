import { parsePhoneNumberFromString } from 'libphonenumber-js';
import type { ConnectedAppsDependencies, FdxAccess } from '../connected-apps/service.ts';
import { contactDetailsOf } from '../contact-details/service.ts';
import { findCustomerById } from '../customers/service.ts';
import { requireConsentedAccount } from './accounts.ts';
import { accountNotFound } from './errors.ts';
import type { AccountContact } from './schemas.ts';

/**
 * `GET /accounts/{accountId}/contact` (fdx:customercontact:read): FDX's AccountContact of a
 * consented account. Every account here has one owner, the customer (FDX's SOLE_OWNER), with the
 * contact details their Settings show: the email, the phone once verified, the postal address.
 */
export async function fdxAccountContact(dependencies: Pick<ConnectedAppsDependencies, 'db'>, access: FdxAccess, accountId: string): Promise<AccountContact> {
  await requireConsentedAccount(dependencies, access, accountId);
  const customer = await findCustomerById(dependencies.db, access.customerId);
  if (!customer) throw accountNotFound();
  const details = await contactDetailsOf(dependencies.db, access.customerId);
  const phone = details.phone ? parsePhoneNumberFromString(details.phone.number) : undefined;
  const [line1 = '', line2] = details.address?.address.split('\n') ?? [];
  return {
    holders: [{ relationship: 'SOLE_OWNER', name: { first: customer.first_name, last: customer.last_name } }],
    emails: [details.email],
    addresses: details.address
      ? [
          {
            line1,
            ...(line2 ? { line2 } : {}),
            city: details.address.city,
            region: details.address.state,
            postalCode: details.address.zipCode,
            country: details.address.country,
          },
        ]
      : [],
    // FDX's TelephoneNumber: the country calling code and the subscriber number, digits only.
    telephones: phone ? [{ type: 'PERSONAL', country: phone.countryCallingCode, number: phone.nationalNumber }] : [],
  };
}
