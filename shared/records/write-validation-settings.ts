import { ValidationError, type ErrorDetail } from '../base/errors';
import { nowMs } from '../base/clock';
import {
  deleteWriteValidation,
  findWriteValidation,
  putWriteValidation,
  type ConditionalRequirement,
  type WriteValidation,
} from '../db/write-validation';
import { customTypeTokens, withAccountTypes } from '../objects/account-object-types';
import { requireStoredObjectType, type ObjectType } from '../objects/object-types';
import { isReadOnly } from '../properties/property-definition';
import { loadPropertySchema } from '../properties/type-properties';

/** What the control takes: the schema (functions/sandbox/sandbox.schema.ts) has checked types and bounds. */
export interface WriteValidationInput {
  requiredOnCreate?: readonly string[];
  conditionalRequirements?: readonly {
    propertyName: string;
    whenProperty: string;
    whenValues?: readonly string[];
    whenClosedWon?: boolean;
  }[];
}

/** What the control answers: the type's rules (none set: empty lists and `updatedAt` null). */
export interface WriteValidationView {
  objectTypeId: string;
  objectType: string;
  requiredOnCreate: string[];
  conditionalRequirements: ConditionalRequirement[];
  updatedAt: string | null;
}

const viewOf = (type: ObjectType, validation: WriteValidation | undefined): WriteValidationView => ({
  objectTypeId: type.id,
  objectType: type.name,
  requiredOnCreate: validation?.requiredOnCreate ?? [],
  conditionalRequirements: validation?.conditionalRequirements ?? [],
  updatedAt: validation?.updatedAt ?? null,
});

/** A field of the input the rules refuse, named as the body names it. */
interface Problem {
  field: string;
  value: string;
  message: string;
}

function refusal(problems: readonly Problem[]): ValidationError {
  const context: Record<string, string[]> = {};
  for (const problem of problems) context[problem.field] = [...(context[problem.field] ?? []), problem.value];
  const errors: ErrorDetail[] = problems.map((problem) => ({
    message: problem.message,
    code: 'INVALID_WRITE_VALIDATION',
    in: problem.field,
    context: { [problem.field]: [problem.value] },
  }));
  return new ValidationError(problems.map((problem) => problem.message).join('; '), { context, errors });
}

/**
 * The rules as stored, after every check of what joins fields and what the account holds: each
 * named property exists on the type (a custom property of the account included); a required one is
 * one a client can set (not read-only); a requirement names exactly one condition: `whenValues`, or
 * `whenClosedWon: true` on the type's stage property. All problems are reported at once.
 */
async function checkedRules(
  type: ObjectType,
  hubId: number,
  input: WriteValidationInput,
): Promise<Pick<WriteValidation, 'requiredOnCreate' | 'conditionalRequirements'>> {
  const requiredOnCreate = [...new Set(input.requiredOnCreate ?? [])];
  const requirements = input.conditionalRequirements ?? [];
  const names = [
    ...requiredOnCreate,
    ...requirements.flatMap((requirement) => [requirement.propertyName, requirement.whenProperty]),
  ];
  const schema = await loadPropertySchema(type, hubId, names);
  const problems: Problem[] = [];
  const requireSettable = (field: string, name: string) => {
    const definition = schema.find(name);
    if (!definition)
      problems.push({ field, value: name, message: `Property "${name}" does not exist on ${type.name}` });
    else if (isReadOnly(definition))
      problems.push({ field, value: name, message: `Property "${name}" is read only; no write can set it` });
  };
  for (const name of requiredOnCreate) requireSettable('requiredOnCreate', name);
  const conditional: ConditionalRequirement[] = [];
  requirements.forEach((requirement, index) => {
    const at = `conditionalRequirements[${index}]`;
    requireSettable(`${at}.propertyName`, requirement.propertyName);
    if (!schema.find(requirement.whenProperty))
      problems.push({
        field: `${at}.whenProperty`,
        value: requirement.whenProperty,
        message: `Property "${requirement.whenProperty}" does not exist on ${type.name}`,
      });
    const hasValues = requirement.whenValues !== undefined;
    if (hasValues === (requirement.whenClosedWon === true)) {
      problems.push({
        field: at,
        value: requirement.propertyName,
        message: `${at} needs exactly one condition: whenValues, or whenClosedWon: true`,
      });
      return;
    }
    if (requirement.whenClosedWon && requirement.whenProperty !== type.pipeline?.stageProperty) {
      problems.push({
        field: `${at}.whenClosedWon`,
        value: requirement.whenProperty,
        message: type.pipeline
          ? `whenClosedWon applies to the stage property of ${type.name}, ${type.pipeline.stageProperty}`
          : `${type.name} have no pipelines: whenClosedWon does not apply`,
      });
      return;
    }
    conditional.push({
      propertyName: requirement.propertyName,
      whenProperty: requirement.whenProperty,
      ...(requirement.whenClosedWon
        ? { whenClosedWon: true as const }
        : { whenValues: [...new Set(requirement.whenValues ?? [])] }),
    });
  });
  if (problems.length > 0) throw refusal(problems);
  return { requiredOnCreate, conditionalRequirements: conditional };
}

/** The type a token names in the test account: a stored type, or a custom type of the account (its schemas read once, only for a token that could name one). */
function withType<T>(hubId: number, token: string, work: (type: ObjectType) => Promise<T>): Promise<T> {
  const custom = customTypeTokens([token]);
  const run = () => work(requireStoredObjectType(token));
  return custom.length === 0 ? run() : withAccountTypes(hubId, custom, run);
}

/**
 * Sets the account's write validation of the type (replacing the one before): what its 2026-09
 * creates and updates must hold (write-validation.ts). Empty lists remove it. The caller has
 * checked who may (the test-account control, the admin CLI) and runs it in the account's write
 * guard where one applies.
 */
export async function setAccountWriteValidation(
  hubId: number,
  typeToken: string,
  input: WriteValidationInput,
): Promise<WriteValidationView> {
  return withType(hubId, typeToken, async (type) => {
    const rules = await checkedRules(type, hubId, input);
    if (rules.requiredOnCreate.length === 0 && rules.conditionalRequirements.length === 0) {
      await deleteWriteValidation(hubId, type.id);
      return viewOf(type, undefined);
    }
    const validation: WriteValidation = { objectTypeId: type.id, ...rules, updatedAt: new Date(nowMs()).toISOString() };
    await putWriteValidation(hubId, validation);
    return viewOf(type, validation);
  });
}

/** The account's write validation of the type. */
export async function getAccountWriteValidation(hubId: number, typeToken: string): Promise<WriteValidationView> {
  return withType(hubId, typeToken, async (type) => viewOf(type, await findWriteValidation(hubId, type.id)));
}
