import { standardPipelineTypes } from '#standard-pipelines';

/**
 * What a route row asks before it knows the type: any scope of any type with pipelines (their
 * modules state who may read and change them, shared/objects/types/); the handler then requires
 * the type's own.
 */
export const anyPipelineReadScopes = [...new Set(standardPipelineTypes.flatMap((type) => type.scopes.read))];
export const anyPipelineWriteScopes = [...new Set(standardPipelineTypes.flatMap((type) => type.scopes.write))];
