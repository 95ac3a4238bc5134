import type { ConflictError } from '../base/errors';

/**
 * The few rules a type has of its own, beside what its registry entry states as data (unique,
 * required and pipeline properties). A type without an entry here has none.
 */
export interface TypeRules {
  /** The stored form of a value of the type's unique property (and of each of its additional values); undefined when it is not one. */
  normalizeUniqueValue?: (raw: string) => string | undefined;
  invalidUniqueValue?: { error: string; message: (value: string) => string };
  /** How an error names one of the additional values ("additional domain"). */
  additionalName?: string;
  maxAdditionalValues?: number;
  /** Checked on the properties a create or an update leaves. */
  requireOnWrite?: (properties: Record<string, string>) => void;
  /** Values a create gets when it sends none for them (contacts: `lifecyclestage` `lead`, as HubSpot answers an app's create). */
  valuesOnCreate?: Readonly<Record<string, string>>;
  /** The answer to a unique value another record holds, when the type has its own (contacts). */
  conflict?: (value: { propertyName: string; value: string }, ownerId: string) => ConflictError;
  /**
   * A property naming a record of another type (a line item's `hs_product_id`): the record must
   * exist (else 400 naming the property), and a create takes the `copied` values from it that it
   * does not send itself.
   */
  valuesFromReference?: { property: string; typeId: string; copied: readonly string[] };
  /** A type whose records are associated with at most one record of this type (a line item's deal): a second one answers 400. */
  singleAssociation?: { typeId: string };
  /**
   * Values computed from the record's own when read (and kept in its search projection): a line
   * item's `amount`, an activity's `hs_body_preview`. Read-only in the type's catalog.
   */
  computed?: Readonly<Record<string, (properties: Readonly<Record<string, string>>) => string | undefined>>;
  /**
   * Properties whose value is the id of the record the type's records hold by one association type
   * (a contact's `associatedcompanyid`: its primary company, type 1 to companies), read from the
   * record's associations; not kept in its search projection.
   */
  associatedIds?: Readonly<Record<string, readonly [toObjectTypeId: string, typeId: number]>>;
  /**
   * Records of the type associated with each other, bounded on both sides (companies: at most 50
   * associated companies): each record's item counts them, and the transaction that adds to a
   * record's count checks it there.
   */
  linksToSelf?: { max: number };
  /**
   * A record of another type has at most one primary record of this type (companies: a contact's,
   * deal's or ticket's primary company, by the Primary association type to companies): of the
   * primary keys a write leaves, the one gained last stays, and a record made primary takes the
   * primary from the one that was. The unlabeled association stays.
   */
  isOnePrimary?: boolean;
}
