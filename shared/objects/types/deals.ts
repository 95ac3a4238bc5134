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
const id = '0-3';
const name = 'deals';

/**
 * Deals (0-3): HubSpot's ids, names, scopes and default properties
 * (reference/HUBSPOT-WIRE-FACTS-3.md); `dealname` and `dealstage` required, in a pipeline (`default`
 * when a create names none) whose live stage `dealstage` must be.
 */
export const objectType = {
  id,
  name,
  singular: 'deal',
  keyPrefix: 'DEAL',
  searchTag: '0-3#',
  isActivity: false,
  scopes: { read: ['crm.objects.deals.read'], write: ['crm.objects.deals.write'] },
  propertyScopes: { read: ['crm.schemas.deals.read', 'crm.objects.deals.read'], write: ['crm.schemas.deals.write'] },
  modifiedProperty: 'hs_lastmodifieddate',
  defaultProperties: [
    'amount',
    'closedate',
    'createdate',
    'dealname',
    'dealstage',
    'hs_lastmodifieddate',
    'hs_object_id',
    'pipeline',
  ],
  queryProperties: ['dealname', 'pipeline', 'dealstage', 'description', 'dealtype'],
  uniqueProperties: [],
  primaryDisplayProperty: 'dealname',
  requiredProperties: ['dealname', 'dealstage'],
  pipeline: { property: 'pipeline', stageProperty: 'dealstage', defaultPipelineId: 'default' },
  isMergeable: true,
  isStored: true,
} as const satisfies ObjectType;

/** Its own scopes' bits in the access token's scope mask (shared/oauth/scopes.ts). */
export const scopeBits = {
  'crm.objects.deals.read': 8,
  'crm.objects.deals.write': 9,
  'crm.schemas.deals.read': 11,
  'crm.schemas.deals.write': 23,
} as const satisfies ScopeBits;

export const scopeDescriptions = {
  'crm.objects.deals.read': 'See your deals and every property on them.',
  'crm.objects.deals.write': 'Create, change and delete your deals.',
  'crm.schemas.deals.read': 'See the deal properties and pipelines your account defines.',
  'crm.schemas.deals.write': 'Create and change deal properties and deal pipelines with their stages.',
} as const satisfies ScopeDescriptions;

export const events = {
  type: objectType,
  kinds: ['creation', 'deletion', 'propertyChange', 'associationChange', 'merge', 'restore'],
} as const satisfies TypeEvents;

/** Deals' HubSpot-defined types (the wire facts' tables 7.1 and 7.2): to deals (451), tickets, the activities and line items (the line-item guide: line item to deal 20). */
export const associations: TypeAssociations = {
  type: objectType,
  toSelf: 451,
  pairs: [
    { to: '0-5', ids: [27, 28] },
    { to: '0-48', ids: [205, 206] },
    { to: '0-49', ids: [209, 210] },
    { to: '0-47', ids: [211, 212] },
    { to: '0-46', ids: [213, 214] },
    { to: '0-27', ids: [215, 216] },
    { to: '0-8', ids: [19, 20] },
  ],
};

/**
 * Deal stages: `probability` required, a number from 0.0 to 1.0 (sent as a string). Unless told, a
 * stage at 1.0 (won) or 0.0 (lost) is closed, as the default pipeline's closedwon and closedlost are.
 */
export function stageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const probability = metadata.probability;
  const value = probability === undefined || probability.trim() === '' ? Number.NaN : Number(probability);
  if (!(value >= 0 && value <= 1)) {
    throw new ValidationError(
      `A deal stage needs metadata.probability, a number between 0.0 and 1.0; got ${JSON.stringify(probability ?? null)}`,
      {
        context: { 'metadata.probability': [probability ?? ''] },
      },
    );
  }
  requireIsClosed(metadata);
  return { ...metadata, isClosed: metadata.isClosed ?? String(value === 0 || value === 1) };
}

const dealStage = (id: string, label: string, displayOrder: number, probability: string): StageTemplate => ({
  id,
  label,
  displayOrder,
  metadata: { isClosed: String(probability === '1.0' || probability === '0.0'), probability },
});

let defaultPipelines: readonly PipelineTemplate[] | undefined;

/**
 * Deal pipelines (HubSpot's pipelines spec: any one scope of a list suffices), and the pipeline
 * every account starts with, HubSpot's `default` (developers.hubspot.com/docs/api/crm/pipelines),
 * built on first read.
 */
export const pipelines: PipelineObjectType = {
  id,
  name,
  scopes: { read: ['crm.objects.deals.read', 'crm.schemas.deals.read'], write: ['crm.schemas.deals.write'] },
  get defaults() {
    defaultPipelines ??= [
      {
        id: 'default',
        label: 'Sales Pipeline',
        displayOrder: 0,
        stages: [
          dealStage('appointmentscheduled', 'Appointment Scheduled', 0, '0.2'),
          dealStage('qualifiedtobuy', 'Qualified To Buy', 1, '0.4'),
          dealStage('presentationscheduled', 'Presentation Scheduled', 2, '0.6'),
          dealStage('decisionmakerboughtin', 'Decision Maker Bought-In', 3, '0.8'),
          dealStage('contractsent', 'Contract Sent', 4, '0.9'),
          dealStage('closedwon', 'Closed Won', 5, '1.0'),
          dealStage('closedlost', 'Closed Lost', 6, '0.0'),
        ],
      },
    ];
    return defaultPipelines;
  },
};
