import { ValidationError } from '../../base/errors';
import { requireIsClosed } from '../../pipelines/stage-metadata';
import type { ObjectType } from '../object-type';
import type {
  PipelineObjectType,
  PipelineTemplate,
  ScopeBits,
  ScopeDescriptions,
  StageTemplate,
  TypeAssociations,
  TypeEvents,
} from '../standard-type';

// The pipelines below name the type too: consts, so that a pipeline function's bundle need not hold the whole entry.
const id = '0-5';
const name = 'tickets';

/**
 * Tickets (0-5): HubSpot's ids, names, scopes and default properties
 * (reference/HUBSPOT-WIRE-FACTS-3.md); `subject` and `hs_pipeline_stage` required, in a pipeline
 * ("0" when a create names none). HubSpot's v3 spec asks for `tickets`, its newer guide for the
 * granular scopes: either suffices.
 */
export const objectType = {
  id,
  name,
  singular: 'ticket',
  keyPrefix: 'TICKET',
  searchTag: '0-5#',
  isActivity: false,
  scopes: { read: ['tickets', 'crm.objects.tickets.read'], write: ['tickets', 'crm.objects.tickets.write'] },
  propertyScopes: {
    read: ['tickets', 'crm.schemas.tickets.read', 'crm.objects.tickets.read'],
    write: ['tickets', 'crm.schemas.tickets.write'],
  },
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: [
    'content',
    'createdate',
    'hs_lastmodifieddate',
    'hs_object_id',
    'hs_pipeline',
    'hs_pipeline_stage',
    'hs_ticket_category',
    'hs_ticket_priority',
    'subject',
  ],
  queryProperties: ['subject', 'content', 'hs_pipeline_stage', 'hs_ticket_category', 'hs_ticket_id'],
  uniqueProperties: [],
  primaryDisplayProperty: 'subject',
  requiredProperties: ['subject', 'hs_pipeline_stage'],
  pipeline: { property: 'hs_pipeline', stageProperty: 'hs_pipeline_stage', defaultPipelineId: '0' },
  isMergeable: true,
  isStored: true,
} as const satisfies ObjectType;

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.tickets.read': 20,
  'crm.objects.tickets.write': 21,
  'crm.schemas.tickets.read': 24,
  'crm.schemas.tickets.write': 25,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.tickets.read': 'See your support tickets and every property on them.',
  'crm.objects.tickets.write': 'Create, change and delete your support tickets.',
  'crm.schemas.tickets.read': 'See the ticket properties and pipelines your account defines.',
  'crm.schemas.tickets.write': 'Create and change ticket properties and ticket pipelines with their stages.',
} as const satisfies ScopeDescriptions;

export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'associationChange', 'merge', 'restore'],
} as const satisfies TypeEvents;

/** Tickets' HubSpot-defined types (the wire facts' tables 7.1 and 7.2): to tickets (452) and the activities. */
export const associations: TypeAssociations = {
  type: objectType,
  toSelf: 452,
  pairs: [
    { to: '0-48', ids: [219, 220] },
    { to: '0-49', ids: [223, 224] },
    { to: '0-47', ids: [225, 226] },
    { to: '0-46', ids: [227, 228] },
    { to: '0-27', ids: [229, 230] },
  ],
};

/** Ticket stages: `ticketState` OPEN or CLOSED when given; a CLOSED stage is closed. */
export function stageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const ticketState = metadata.ticketState;
  if (ticketState !== undefined && ticketState !== 'OPEN' && ticketState !== 'CLOSED') {
    throw new ValidationError(`metadata.ticketState must be OPEN or CLOSED, not ${JSON.stringify(ticketState)}`, {
      context: { 'metadata.ticketState': [ticketState] },
    });
  }
  requireIsClosed(metadata);
  return { ...metadata, isClosed: metadata.isClosed ?? String(ticketState === 'CLOSED') };
}

const ticketStage = (
  id: string,
  label: string,
  displayOrder: number,
  ticketState: 'OPEN' | 'CLOSED',
): StageTemplate => ({
  id,
  label,
  displayOrder,
  metadata: { ticketState, isClosed: String(ticketState === 'CLOSED') },
});

let defaultPipelines: readonly PipelineTemplate[] | undefined;

/** Ticket pipelines, and the pipeline every account starts with, HubSpot's "0" (developers.hubspot.com/docs/api/crm/pipelines), built on first read. */
export const pipelines: PipelineObjectType = {
  id,
  name,
  scopes: {
    read: ['tickets', 'crm.objects.tickets.read', 'crm.schemas.tickets.read'],
    write: ['tickets', 'crm.schemas.tickets.write'],
  },
  get defaults() {
    defaultPipelines ??= [
      {
        id: '0',
        label: 'Support Pipeline',
        displayOrder: 0,
        stages: [
          ticketStage('1', 'New', 0, 'OPEN'),
          ticketStage('2', 'Waiting on contact', 1, 'OPEN'),
          ticketStage('3', 'Waiting on us', 2, 'OPEN'),
          ticketStage('4', 'Closed', 3, 'CLOSED'),
        ],
      },
    ];
    return defaultPipelines;
  },
};
