import { resolveScopedType, type AuthContext } from '../../shared/http/auth';
import { requirePipelineObjectType, type PipelineObjectType } from '../../shared/pipelines/pipeline-object-types';

/**
 * The path's object type (400 naming the token when it has no pipelines), then the scope of that
 * type (403 MISSING_SCOPES listing its alternatives): the route row only asked for any type's scope.
 */
export function resolvePipelineType(auth: AuthContext, token: string, access: 'read' | 'write'): PipelineObjectType {
  return resolveScopedType(auth, token, requirePipelineObjectType, (type) => type.scopes[access]);
}
