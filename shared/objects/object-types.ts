/**
 * CRM object types the association routes accept, by plural name or object type id:
 * https://developers.hubspot.com/docs/guides/crm/using-object-apis
 */
export interface ObjectType {
  id: string;
  name: string;
  singular: string;
  /** Activities can be pinned on a record. */
  isActivity: boolean;
}

export const objectTypes: readonly ObjectType[] = [
  { id: '0-1', name: 'contacts', singular: 'contact', isActivity: false },
  { id: '0-2', name: 'companies', singular: 'company', isActivity: false },
  { id: '0-3', name: 'deals', singular: 'deal', isActivity: false },
  { id: '0-5', name: 'tickets', singular: 'ticket', isActivity: false },
  { id: '0-46', name: 'notes', singular: 'note', isActivity: true },
  { id: '0-48', name: 'calls', singular: 'call', isActivity: true },
  { id: '0-49', name: 'emails', singular: 'email', isActivity: true },
  { id: '0-47', name: 'meetings', singular: 'meeting', isActivity: true },
  { id: '0-27', name: 'tasks', singular: 'task', isActivity: true },
];

export const companyObjectType = objectTypes[1] as ObjectType;

const byToken = new Map<string, ObjectType>();
for (const type of objectTypes) {
  byToken.set(type.id, type);
  byToken.set(type.name, type);
  byToken.set(type.singular, type);
}

/** Plural name, singular name or object type id, case-insensitive. */
export function findObjectType(token: string): ObjectType | undefined {
  return byToken.get(token.trim().toLowerCase());
}

export function objectTypeById(id: string): ObjectType | undefined {
  return byToken.get(id);
}
