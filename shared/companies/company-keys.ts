import type { KeyedType } from '../db/keys';

/**
 * Companies' keys, as their registry entry states them: the key prefix `COMPANY`, and no type id in
 * the search projection's partitions (search tag '') or in the association edge keys a company holds
 * (every other type's keys carry its id). A module of its own, so code that needs only where
 * companies' items live (the purge of a test account, the legacy timeline's COMPANY events) reads
 * it without the registry.
 */
export const companyKeys = {
  id: '0-2',
  name: 'companies',
  keyPrefix: 'COMPANY',
  searchTag: '',
} as const satisfies KeyedType;
