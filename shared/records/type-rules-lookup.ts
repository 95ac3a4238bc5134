import { standardTypeRules } from '#standard-types';
import type { ObjectType } from '../objects/object-types';
import type { TypeRules } from '../objects/type-rules';

export type { TypeRules } from '../objects/type-rules';

/** The rules of each type that has some, by name, from the types' modules (shared/objects/types/); shared/objects/type-rules.ts says what a rule is. */
export function rulesTableOf(
  entries: readonly (readonly [Pick<ObjectType, 'name'>, TypeRules])[],
): ReadonlyMap<string, TypeRules> {
  return new Map(entries.map(([type, rules]) => [type.name, rules]));
}

const rules = rulesTableOf(standardTypeRules);

/** A type without an entry has none. */
export function rulesOf(type: ObjectType): TypeRules {
  return rules.get(type.name) ?? {};
}
