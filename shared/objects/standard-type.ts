import type { Scope } from '../oauth/scopes';
import type { ObjectType } from './object-type';
import type { TypeRules } from './type-rules';

/**
 * What a standard type's module (shared/objects/types/<type>.ts) exports, under these names: its
 * registry entry and the parts it has. Each part is a plain literal of its own, so a function's
 * bundle carries only the parts its code reads; standard-types.ts lists the modules' parts.
 */
export interface StandardTypeModule {
  objectType: ObjectType;
  rules?: TypeRules;
  associations?: TypeAssociations;
  events?: TypeEvents;
  pipelines?: PipelineObjectType;
  stageMetadata?: StageMetadataRule;
  scopeDescriptions?: ScopeDescriptions;
  scopeBits?: ScopeBits;
}

/** The parts a module may export beside `objectType`, in the order StandardTypeModule lists them. */
export const typeParts = [
  'rules',
  'associations',
  'events',
  'pipelines',
  'stageMetadata',
  'scopeDescriptions',
  'scopeBits',
] as const;

/**
 * The type's own scopes and the bit each takes in an access token's scope mask
 * (shared/oauth/scopes.ts): a bit is never reused or moved, since issued tokens carry it.
 */
export type ScopeBits = Readonly<Record<string, number>>;

/** The kinds of change a webhook subscription names: `<singular>.<kind>` (`deal.creation`), and `object.<kind>` for the generic ones. */
export type ChangeKind =
  | 'creation'
  | 'deletion'
  | 'propertyChange'
  | 'associationChange'
  | 'merge'
  | 'restore'
  | 'privacyDeletion';

/**
 * A type's webhook subscription types, `<singular>.<kind>` for each kind (the type's id is a
 * subscription's `objectTypeId`); an app subscribes to them, and an install receives them, with
 * one of the type's record read scopes.
 */
export interface TypeEvents {
  type: ObjectType;
  kinds: readonly ChangeKind[];
}

/**
 * HubSpot-defined association types a type owns (shared/association-types/association-types.ts
 * builds both directions of each and names them `<from>_to_<to>` from the singular names):
 * its unlabeled type to its own records, labeled types to its own records, and for each pair with
 * another type the `[from -> to, to -> from]` ids of the unlabeled types and, where the pair has
 * one, of the Primary types (which imply the unlabeled ones).
 */
export interface TypeAssociations {
  type: ObjectType;
  toSelf?: number;
  labeledToSelf?: readonly { typeId: number; name: string; label: string; inverseTypeId: number }[];
  pairs: readonly { to: string; ids: readonly [number, number]; primary?: readonly [number, number] }[];
}

/** What each of a type's own scopes lets an app do, in plain words for the consent page. */
export type ScopeDescriptions = Readonly<Partial<Record<Scope, string>>>;

/** A stage as every account starts with it, or as a client describes one; metadata values are strings. */
export interface StageTemplate {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
}

export interface PipelineTemplate {
  id: string;
  label: string;
  displayOrder: number;
  stages: readonly StageTemplate[];
}

/**
 * An object type that has pipelines: which tokens name it, who may read and change its pipelines,
 * and the pipelines every account starts with (its stages' metadata rule is its module's
 * `stageMetadata`).
 */
export interface PipelineObjectType {
  id: string;
  name: string;
  scopes: { read: readonly Scope[]; write: readonly Scope[] };
  /** Every account's pipelines of this type until its first change (createdAt epoch 0). */
  defaults: readonly PipelineTemplate[];
}

/** A type's rule for its stages' metadata: checks it and completes it (isClosed); throws a ValidationError naming the field. */
export type StageMetadataRule = (metadata: Readonly<Record<string, string>>) => Record<string, string>;
