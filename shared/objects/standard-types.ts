import path from 'node:path';
import { sourceModulesIn } from '../base/source-modules';
import type { StandardTypeModule } from './standard-type';

/**
 * The standard types run from source (tests, the local runtime, the build step): every module of
 * shared/objects/types/, in the order of their type ids (`0-1`, `0-2`, ..., `0-49`). `#standard-types`
 * resolves here (package.json `imports`); a function's bundle resolves it to the module
 * bin/build-validators.ts writes instead, which imports the same modules by name and lists the same
 * parts, so that the bundle holds only the parts its code reads. Each list below is one part of every
 * module that has it; every table of the service about types is derived from these lists.
 */
export const standardTypesDir = path.join(__dirname, 'types');

/** The id's number: standard ids are `0-<n>`. */
const typeNumber = (module: StandardTypeModule): number => Number(module.objectType.id.slice(2));

/** The modules of a folder of type modules, each file's exports, by type id. */
export function typeModulesIn(dir: string): { file: string; module: StandardTypeModule }[] {
  return sourceModulesIn<StandardTypeModule>(dir).sort((a, b) => typeNumber(a.module) - typeNumber(b.module));
}

const modules = typeModulesIn(standardTypesDir).map(({ module }) => module);

/** The part `pick` finds in each module that has one, in the modules' order. */
const partsOf = <Part>(pick: (module: StandardTypeModule) => Part | undefined): Part[] =>
  modules.flatMap((module) => {
    const part = pick(module);
    return part === undefined ? [] : [part];
  });

/** The registry's entries (shared/objects/object-types.ts). */
export const standardTypes = modules.map((module) => module.objectType);
/** The rules of the types that have some (shared/records/type-rules-lookup.ts). */
export const standardTypeRules = partsOf((module) =>
  module.rules === undefined ? undefined : ([module.objectType, module.rules] as const),
);
/** The HubSpot-defined association types each type owns (shared/association-types/association-types.ts). */
export const standardTypeAssociations = partsOf((module) => module.associations);
/** The webhook subscription types (shared/webhooks/subscription-types.ts). */
export const standardTypeEvents = partsOf((module) => module.events);
/** The types with pipelines (shared/pipelines/pipeline-object-types.ts). */
export const standardPipelineTypes = partsOf((module) => module.pipelines);
/** Each pipeline type's stage metadata rule, by type id (shared/pipelines/pipeline-object-types.ts). */
export const standardStageMetadata = partsOf((module) =>
  module.stageMetadata === undefined ? undefined : ([module.objectType.id, module.stageMetadata] as const),
);
/** The consent page's words for each type's own scopes (shared/oauth/scope-descriptions.ts). */
export const standardScopeDescriptions = partsOf((module) => module.scopeDescriptions);
/** Each type's own scopes and their bits in the token's scope mask (shared/oauth/scopes.ts). */
export const standardScopeBits = partsOf((module) => module.scopeBits);
