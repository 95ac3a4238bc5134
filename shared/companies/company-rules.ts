import { ValidationError } from '../base/errors';
import type { TypeRules } from '../objects/type-rules';
import { normalizeDomain } from './normalize-domain';

/**
 * What only companies do: domains are normalized (case, scheme, www., path) and must look like
 * host names, a company needs a name or a domain (HubSpot's "at least one of domain or name"), a
 * company has at most 50 associated companies, and a record has at most one primary company.
 */
export const companyRules: TypeRules = {
  linksToSelf: { max: 50 },
  isOnePrimary: true,
  normalizeUniqueValue: normalizeDomain,
  invalidUniqueValue: { error: 'INVALID_DOMAIN', message: (value) => `${value} is not a valid domain` },
  additionalName: 'additional domain',
  maxAdditionalValues: 20,
  requireOnWrite(properties) {
    if (!properties.name && !properties.domain) {
      throw new ValidationError('A company needs at least one of the properties name or domain', {
        context: { properties: ['name', 'domain'] },
        errors: [
          {
            message: 'name or domain is required',
            code: 'REQUIRED_PROPERTY',
            context: { propertyName: ['name', 'domain'] },
          },
        ],
      });
    }
  },
};
