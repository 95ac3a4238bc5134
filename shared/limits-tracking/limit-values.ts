import { maxCustomTypesPerPair } from '../association-types/association-labels';
import { maxAssociationsPerRecord } from '../db/records';
import { maxLivePipelines } from '../pipelines/change-pipelines';
import { maxCustomProperties } from '../properties/type-properties';
import { maxSchemasPerAccount } from '../schemas/object-schemas';

/**
 * The limits the limits tracking API reports (docs/account-and-limits.md): the ones this service
 * enforces where it enforces one, HubSpot's documented figures where it enforces none.
 */
export const reportedLimits = {
  /** Not enforced: HubSpot's figure per HubSpot-defined object (the limits tracking guide's example answer). */
  recordsPerStandardType: 15_000_000,
  /** Not enforced: the same figure, for the records of all custom object types together. */
  customObjectRecords: 15_000_000,
  /** Enforced: custom object schemas per account, archived ones until deleted for good. */
  customObjectTypes: maxSchemasPerAccount,
  /** Enforced: custom property definitions per object type, archived ones included. */
  customPropertiesPerType: maxCustomProperties,
  /** Not enforced (the service has no calculated properties): HubSpot's Enterprise figure. */
  calculatedProperties: 200,
  /** Enforced: live pipelines per object type with pipelines (deals, tickets). */
  pipelinesPerType: maxLivePipelines,
  /** Enforced: no pipelines for custom object types. */
  customObjectPipelines: 0,
  /** Enforced: custom association labels per object pair and direction. */
  labelsPerPair: maxCustomTypesPerPair,
  /** Enforced: association keys on one record, whatever the types at the other end. */
  associationsPerRecord: maxAssociationsPerRecord,
} as const;

/**
 * Usage as a percentage of the limit (0 to 100), to three decimals, as HubSpot answers it
 * (94 companies of 15,000,000: 0.001); 0 when the limit is 0.
 */
export const percentageOf = (usage: number, limit: number): number =>
  limit > 0 ? Math.round((usage / limit) * 100_000) / 1000 : 0;
