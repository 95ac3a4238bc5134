import { ConflictError } from '../base/errors';
import type { TypeRules } from '../objects/type-rules';

/** Long enough for any address (RFC 5321 allows 254); the cap also bounds the check below. */
const maxEmailLength = 254;
const emailPattern = /^[^\s@;]{1,64}@[^\s@;]{1,253}$/;

/** An email as the uniqueness key sees it (and as it is stored): trimmed, lower case; undefined when it is no address. */
export function normalizeEmail(raw: string): string | undefined {
  const email = raw.trim().toLowerCase();
  if (email.length > maxEmailLength || !emailPattern.test(email)) return undefined;
  const domain = email.slice(email.indexOf('@') + 1);
  return domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.') ? email : undefined;
}

/**
 * What only contacts do: `email` is unique per account, compared without case, and so is each of
 * `hs_additional_emails`; a duplicate answers HubSpot's exact 409 body (no context):
 * `Contact already exists. Existing ID: <id>` (reference/HUBSPOT-WIRE-FACTS-3.md, 2.3).
 */
export const contactRules: TypeRules = {
  normalizeUniqueValue: normalizeEmail,
  invalidUniqueValue: { error: 'INVALID_EMAIL', message: (value) => `Email address ${value} is invalid` },
  additionalName: 'additional email',
  maxAdditionalValues: 20,
  conflict: (_value, ownerId) => new ConflictError(`Contact already exists. Existing ID: ${ownerId}`),
  // A contact an app creates without a lifecycle stage comes back as a lead (reference/HUBSPOT-WIRE-FACTS-3.md, 2.1).
  valuesOnCreate: { lifecyclestage: 'lead' },
  // A contact's primary company (it has at most one): contact to company, Primary (HubSpot's type 1).
  associatedIds: { associatedcompanyid: ['0-2', 1] },
};
