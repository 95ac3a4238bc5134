import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { tableName } from './client';
import { conditionalWrite, getItem, recordOf, itemOf, type Entity } from './core';
import { writeValidationKey } from './keys';

/** Bounds of one type's rules (the item stays far below DynamoDB's 400 KB; a write checks them all). */
export const maxRequiredOnCreate = 100;
export const maxConditionalRequirements = 20;
export const maxWhenValues = 50;

/** A property that must hold a value when another property holds one of some values (or names a closed won stage). */
export interface ConditionalRequirement {
  propertyName: string;
  whenProperty: string;
  /** The values of `whenProperty` that make `propertyName` required; absent when `whenClosedWon` says which. */
  whenValues?: string[];
  /** `whenProperty` is the type's stage property and names a stage whose metadata says closed won. */
  whenClosedWon?: true;
}

/** An account's write validation of one object type: what its 2026-09 creates and updates must hold. */
export interface WriteValidation {
  objectTypeId: string;
  /** Properties every create must set (the create-record form's required fields). */
  requiredOnCreate: string[];
  conditionalRequirements: ConditionalRequirement[];
  updatedAt: string;
}

const writeValidationItem: Entity<WriteValidation, { hubId: number }> = {
  key: (validation, scope) => writeValidationKey(scope.hubId, validation.objectTypeId),
};

/** The account's write validation of the type; undefined when it has none (nothing is checked). One GetItem. */
export async function findWriteValidation(hubId: number, objectTypeId: string): Promise<WriteValidation | undefined> {
  const item = await getItem(writeValidationKey(hubId, objectTypeId));
  return item ? recordOf(writeValidationItem, item) : undefined;
}

/** Stores the type's write validation, replacing the one before. */
export async function putWriteValidation(hubId: number, validation: WriteValidation): Promise<void> {
  await conditionalWrite(
    new PutCommand({ TableName: tableName, Item: itemOf(writeValidationItem, validation, { hubId }) }),
  );
}

/** Removes the type's write validation (no rule left): its writes are checked against nothing. */
export async function deleteWriteValidation(hubId: number, objectTypeId: string): Promise<void> {
  await conditionalWrite(new DeleteCommand({ TableName: tableName, Key: writeValidationKey(hubId, objectTypeId) }));
}
