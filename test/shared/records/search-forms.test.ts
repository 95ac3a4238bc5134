import { requireObjectType } from '../../../shared/objects/object-types';
import {
  orderFormsOfRecord,
  parseSearchInstant,
  parseSearchNumber,
  searchFormsOf,
  sortableNumber,
} from '../../../shared/records/search-forms';

/**
 * The searchable forms of a record's values (shared/records/search-forms.ts): v, the stored value;
 * l, the lower-cased one where it differs; n, a string whose order is the numeric order.
 */
const contacts = requireObjectType('contacts');
const companies = requireObjectType('companies');
const deals = requireObjectType('deals');
const lineItems = requireObjectType('line_items');
const notes = requireObjectType('notes');

const record = (properties: Record<string, string>) => ({
  id: '1000000000000042',
  properties,
  createdAt: '2024-03-01T10:00:00.000Z',
  updatedAt: '2024-03-02T11:00:00.000Z',
});

describe('sortableNumber', () => {
  it('orders its strings as the numbers order, negatives, zero and fractions included', () => {
    const numbers = [-1e300, -1000, -1.5, -1, -0.25, 0, 1e-300, 0.25, 1, 1.5, 1000, 1e300];

    const forms = numbers.map(sortableNumber);

    expect([...forms].sort()).toEqual(forms);
    expect(forms.every((form) => /^[0-9a-f]{16}$/.test(form))).toBe(true);
  });

  it('gives -0 and 0 one form', () => {
    expect(sortableNumber(-0)).toBe(sortableNumber(0));
  });
});

describe('parseSearchNumber', () => {
  it.each([
    ['12', 12],
    [' -1.5 ', -1.5],
    ['.5', 0.5],
    ['+3', 3],
    ['1e3', 1000],
    ['4.', 4],
  ])('reads %p as %p', (raw, value) => {
    expect(parseSearchNumber(raw)).toBe(value);
  });

  it.each(['', 'abc', '1,5', '0x10', '1e400', 'Infinity', '1 2'])('reads %p as no number', (raw) => {
    expect(parseSearchNumber(raw)).toBeUndefined();
  });
});

describe('parseSearchInstant', () => {
  it('reads a date alone as midnight UTC, an ISO instant with its offset, and epoch milliseconds', () => {
    expect(parseSearchInstant('2024-03-01')).toBe(Date.UTC(2024, 2, 1));
    expect(parseSearchInstant('2024-03-01T10:00:00Z')).toBe(Date.UTC(2024, 2, 1, 10));
    expect(parseSearchInstant('2024-03-01T10:00:00+02:00')).toBe(Date.UTC(2024, 2, 1, 8));
    expect(parseSearchInstant('1709287200000')).toBe(1709287200000);
    expect(parseSearchInstant('-1000')).toBe(-1000);
  });

  it.each(['yesterday', '2024-13-45', '03/01/2024', '2024-03-01T10', '1234567890123456'])(
    'reads %p as no instant',
    (raw) => {
      expect(parseSearchInstant(raw)).toBeUndefined();
    },
  );
});

describe('searchFormsOf', () => {
  it("holds the id, the create date and the modified date under each of the type's names", () => {
    const forms = searchFormsOf(contacts, record({}));

    expect(forms.id).toBe('1000000000000042');
    expect(forms.v).toEqual({
      hs_object_id: '1000000000000042',
      createdate: '2024-03-01T10:00:00.000Z',
      hs_createdate: '2024-03-01T10:00:00.000Z',
      hs_lastmodifieddate: '2024-03-02T11:00:00.000Z',
      lastmodifieddate: '2024-03-02T11:00:00.000Z',
    });
    expect(forms.n.createdate).toBe(sortableNumber(Date.UTC(2024, 2, 1, 10)));
    expect(forms.n.hs_object_id).toBe(sortableNumber(1000000000000042));
  });

  it("leaves out a create-date name the type's catalog does not have (companies have no hs_createdate)", () => {
    expect(searchFormsOf(companies, record({})).v.hs_createdate).toBeUndefined();
    expect(searchFormsOf(deals, record({})).v.hs_createdate).toBe('2024-03-01T10:00:00.000Z');
  });

  it('gives a standard string a lower-cased form only where it differs, and no numeric form', () => {
    const forms = searchFormsOf(contacts, record({ firstname: 'Ada', lastname: 'lovelace', city: '1815' }));

    expect(forms.v).toMatchObject({ firstname: 'Ada', lastname: 'lovelace', city: '1815' });
    expect(forms.l.firstname).toBe('ada');
    expect(forms.l.lastname).toBeUndefined();
    expect(forms.n.city).toBeUndefined();
  });

  it('gives a standard number or date a numeric form and no lower-cased one, and an enumeration neither', () => {
    const forms = searchFormsOf(
      deals,
      record({ amount: '1500.5', closedate: '2024-06-30T00:00:00Z', dealstage: 'ClosedWon' }),
    );

    expect(forms.n.amount).toBe(sortableNumber(1500.5));
    expect(forms.n.closedate).toBe(sortableNumber(Date.UTC(2024, 5, 30)));
    expect(forms.l.closedate).toBeUndefined();
    expect(forms.v.dealstage).toBe('ClosedWon');
    expect(forms.l.dealstage).toBeUndefined();
    expect(forms.n.dealstage).toBeUndefined();
  });

  it('gives a custom property every form that applies (the search picks one by its type)', () => {
    const forms = searchFormsOf(contacts, record({ my_code: '42', my_label: 'Mixed Case', my_when: '2024-01-02' }));

    expect(forms.n.my_code).toBe(sortableNumber(42));
    expect(forms.l.my_label).toBe('mixed case');
    expect(forms.n.my_label).toBeUndefined();
    expect(forms.n.my_when).toBe(sortableNumber(Date.UTC(2024, 0, 2)));
  });

  it('leaves an empty value out of every form', () => {
    const forms = searchFormsOf(contacts, record({ firstname: '' }));

    expect('firstname' in forms.v).toBe(false);
  });

  it("holds what the type's rules compute: a line item's amount, a note's body preview", () => {
    expect(searchFormsOf(lineItems, record({ price: '2.5', quantity: '4' })).v.amount).toBe('10');
    expect(searchFormsOf(notes, record({ hs_note_body: '<p>Call <b>back</b></p>' })).v.hs_body_preview).toBe(
      'Call back',
    );
  });
});

describe('orderFormsOfRecord', () => {
  it("is the record's create and modified instants as numeric forms, whatever its values", () => {
    expect(orderFormsOfRecord(deals, record({ dealname: 'A', amount: '5' }))).toEqual({
      c: sortableNumber(Date.UTC(2024, 2, 1, 10)),
      m: sortableNumber(Date.UTC(2024, 2, 2, 11)),
    });
  });
});
