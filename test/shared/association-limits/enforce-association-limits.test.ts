import { limitSetOf, noAssociationLimits } from '../../../shared/association-limits/association-limit-set';
import {
  AssociationLimitExceededError,
  checkConfiguredLimits,
  heldCount,
} from '../../../shared/association-limits/enforce-association-limits';
import type { CrmRecord } from '../../../shared/db/records';
import { requireObjectType } from '../../../shared/objects/object-types';

const contacts = requireObjectType('contacts', 'objectType');
/** Contact -> company through 279 at most 2. */
const limits = limitSetOf({ '0-1/0-2/279': { category: 'HUBSPOT_DEFINED', max: 2 } });

function contactWith(id: string, companies: readonly string[], typeId = 279): CrmRecord {
  return {
    id,
    properties: {},
    history: {},
    associations: Object.fromEntries(companies.map((company) => [`0-2/${company}/${typeId}`, 'contact_to_company'])),
    uniqueValues: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    archived: false,
    version: 1,
  };
}

describe('configured association limits on a record', () => {
  it('counts the records of one type held through one association type only', () => {
    const record = contactWith('1', ['10', '11']);
    record.associations['0-2/12/1'] = 'contact_to_company';
    record.associations['0-3/13/279'] = 'contact_to_deal';

    expect([heldCount(record.associations, '0-2', 279), heldCount(record.associations, '0-2', 1)]).toEqual([2, 1]);
  });

  it('accepts a record at the limit and refuses one past it', () => {
    expect(() => checkConfiguredLimits(limits, contacts, contactWith('1', ['10', '11']))).not.toThrow();
    expect(() => checkConfiguredLimits(limits, contacts, contactWith('1', ['10', '11', '12']))).toThrow(
      AssociationLimitExceededError,
    );
  });

  it('is not retroactive: a record past the limit may keep or lose, and a merge may keep what either held', () => {
    const before = contactWith('1', ['10', '11', '12']);

    expect(() => checkConfiguredLimits(limits, contacts, contactWith('1', ['10', '11', '12']), [before])).not.toThrow();
    expect(() => checkConfiguredLimits(limits, contacts, contactWith('2', ['10', '12']), [before])).not.toThrow();
    expect(() =>
      checkConfiguredLimits(limits, contacts, contactWith('3', ['10', '11', '12', '13']), [
        before,
        contactWith('4', ['13']),
      ]),
    ).toThrow(AssociationLimitExceededError);
  });

  it('holds nothing without a configuration, nor for another association type', () => {
    expect(() =>
      checkConfiguredLimits(noAssociationLimits, contacts, contactWith('1', ['10', '11', '12'])),
    ).not.toThrow();
    expect(() => checkConfiguredLimits(limits, contacts, contactWith('1', ['10', '11', '12'], 1))).not.toThrow();
  });
});
