import { associationLimitKey, findAssociationLimits, type StoredAssociationLimits } from '../db/association-limits';

/** An account's association limits as one write reads them. */
export interface AssociationLimitSet {
  /** At most this many records of `toObjectTypeId` per record of `fromObjectTypeId` through `typeId`; undefined: no limit configured. */
  maxOf(fromObjectTypeId: string, toObjectTypeId: string, typeId: number): number | undefined;
  readonly isEmpty: boolean;
}

export function limitSetOf(limits: StoredAssociationLimits): AssociationLimitSet {
  const isEmpty = Object.keys(limits).length === 0;
  return {
    isEmpty,
    maxOf: (from, to, typeId) => (isEmpty ? undefined : limits[associationLimitKey(from, to, typeId)]?.max),
  };
}

export const noAssociationLimits: AssociationLimitSet = limitSetOf({});

/** The account's limits, read on the first call (one GetItem) and kept for the rest of one request, never longer. */
export type AssociationLimitsReader = () => Promise<AssociationLimitSet>;

export function associationLimitsReader(hubId: number): AssociationLimitsReader {
  let read: Promise<AssociationLimitSet> | undefined;
  return () => {
    read ??= findAssociationLimits(hubId).then((found) => limitSetOf(found.limits));
    return read;
  };
}
