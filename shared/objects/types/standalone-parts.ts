import { companyScopeDescriptions } from './companies';
import { contactScopeDescriptions } from './contacts';
import { dealPipelines, dealScopeDescriptions } from './deals';
import { lineItemScopeDescriptions } from './line-items';
import { productScopeDescriptions } from './products';
import type { PipelineObjectType, ScopeDescriptions } from './standard-type';
import { ticketPipelines, ticketScopeDescriptions } from './tickets';

/**
 * The parts of the standard types that functions which never load the registry read: the pipeline
 * functions (their pipelines) and the consent page (the words for their scopes). The modules named
 * here hold literals only, so such a bundle keeps only the parts it reads; standard-types.ts lists
 * the others.
 */

/** The types with pipelines (shared/pipelines/pipeline-object-types.ts). */
export const standardPipelineTypes: readonly PipelineObjectType[] = [dealPipelines, ticketPipelines];

/** The consent page's words for each type's own scopes (shared/oauth/scope-descriptions.ts). */
export const standardScopeDescriptions = [
  companyScopeDescriptions,
  contactScopeDescriptions,
  dealScopeDescriptions,
  ticketScopeDescriptions,
  productScopeDescriptions,
  lineItemScopeDescriptions,
] as const satisfies readonly ScopeDescriptions[];
