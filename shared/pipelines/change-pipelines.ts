import { randomInt } from 'node:crypto';
import { nowMs } from '../base/clock';
import { ConflictError, ObjectAlreadyExistsError, ValidationError } from '../base/errors';
import * as pipelines from '../db/pipelines';
import type { PipelineAuditEntry, PipelineWriteOutcome, StoredPipeline, StoredStage } from '../db/pipelines';
import { type PipelineObjectType, stageMetadataRuleOf } from './pipeline-object-types';
import { findStagesInUse } from './stage-usage';
import {
  defaultPipeline,
  findCurrentPipeline,
  pipelineNotFound,
  pipelineView,
  requireLivePipeline,
  requireStage,
  stageView,
  type CurrentPipeline,
  type PipelineStageView,
  type PipelineView,
} from './pipeline-view';

/** HubSpot's limit for deal and ticket pipelines. */
export const maxStagesPerPipeline = 100;
/** Live pipelines per type and account (HubSpot's highest tier allows 100 deal pipelines). */
export const maxLivePipelines = 100;
/**
 * One pipeline's item, stages included: room for 100 stages of a few hundred bytes each, and small
 * enough that a list of 100 pipelines stays a few MB (Lambda answers at most 6 MB).
 */
export const maxPipelineBytes = 50_000;

/** Metadata values are strings on the wire; a number or boolean sent is kept as its text. */
export type MetadataInput = Record<string, string | number | boolean>;

export interface StageInput {
  label: string;
  displayOrder: number;
  metadata?: MetadataInput;
  /** The stage's id ("internal name"); a unique number when absent. */
  stageId?: string;
}

export interface PipelineInput {
  label: string;
  displayOrder: number;
  stages: readonly StageInput[];
  pipelineId?: string;
}

/** Who changes, for the audit entry. */
export interface PipelineActor {
  hubId: number;
  userId: number;
}

/**
 * `validateReferencesBeforeDelete=false` skips the in-use check, as HubSpot's flag did before it
 * defaulted to true (2026-09); absent, the check runs.
 */
export interface DeleteFlags {
  validateReferencesBeforeDelete?: boolean;
}

const randomNumericId = (): string => String(randomInt(100_000_000, 1_000_000_000));

function requireLabel(label: string, field: string): string {
  const trimmed = label.trim();
  if (trimmed === '') throw new ValidationError(`${field} must not be empty`, { context: { [field]: [label] } });
  return trimmed;
}

function metadataOf(input: MetadataInput | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(input ?? {}).map(([key, value]) => [key, String(value)]));
}

/** A stage from its input: the type's metadata rule applied; an existing stage keeps its id and creation time. */
function buildStage(
  type: PipelineObjectType,
  input: StageInput,
  id: string,
  createdAt: string,
  now: string,
  field: string,
): StoredStage {
  return {
    id,
    label: requireLabel(input.label, `${field}label`),
    displayOrder: input.displayOrder,
    metadata: stageMetadataRuleOf(type)(metadataOf(input.metadata)),
    createdAt,
    updatedAt: now,
  };
}

/** Labels are unique within a pipeline (compared trimmed and case-insensitively); at most 100 stages. */
function requireValidStages(stages: readonly StoredStage[], field: string): void {
  if (stages.length > maxStagesPerPipeline) {
    throw new ValidationError(
      `A pipeline has at most ${maxStagesPerPipeline} stages; this one would have ${stages.length}`,
      { context: { [field]: [String(stages.length)] } },
    );
  }
  const seen = new Set<string>();
  for (const stage of stages) {
    const label = stage.label.toLowerCase();
    if (seen.has(label)) {
      throw new ValidationError(`Stage labels must be unique within a pipeline: "${stage.label}" is used twice`, {
        context: { [`${field}label`]: [stage.label] },
      });
    }
    seen.add(label);
  }
}

function requireStorable(actor: PipelineActor, type: PipelineObjectType, pipeline: StoredPipeline): void {
  const bytes = pipelines.pipelineItemBytes(actor.hubId, type.id, pipeline);
  if (bytes > maxPipelineBytes) {
    throw new ValidationError(
      `A pipeline with its stages may take at most ${maxPipelineBytes} bytes; this one would take ${bytes}`,
      { context: { stages: [String(bytes)] } },
    );
  }
}

/** 400 STAGE_ID_IN_USE when a record stands in one of the stages (shared/pipelines/stage-usage.ts). */
async function requireStagesUnused(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  stageIds: readonly string[],
  flags: DeleteFlags,
): Promise<void> {
  if (flags.validateReferencesBeforeDelete === false) return;
  const inUse = await findStagesInUse(actor.hubId, type.id, pipelineId, stageIds);
  if (inUse.stageIds.length === 0) return;
  const stageList = `[${inUse.stageIds.join(', ')}]`;
  const objectList = `[${inUse.objectIds.join(', ')}]`;
  throw new ValidationError(`Stage IDs: ${stageList} are being referenced by object IDs: ${objectList}`, {
    subCategory: 'PipelineError.STAGE_ID_IN_USE',
    context: { stageIds: [stageList], objectIds: [objectList] },
  });
}

interface Change {
  /** What is stored now (or the shipped default); undefined for a new pipeline. */
  current?: CurrentPipeline;
  next: StoredPipeline;
  /** How the count of live pipelines moves: +1 create or restore, -1 archive. */
  livePipelinesDelta: number;
  audit: Omit<PipelineAuditEntry, 'timestamp' | 'fromUserId'>[];
  atMs: number;
}

/**
 * Writes one change in one transaction. The type's first change (a default not stored yet, or a
 * create finding no count item) also stores every other default and starts the count.
 */
async function commit(actor: PipelineActor, type: PipelineObjectType, change: Change): Promise<PipelineWriteOutcome> {
  requireStorable(actor, type, change.next);
  const timestamp = new Date(change.atMs).toISOString();
  const base = {
    pipeline: change.next,
    maxLivePipelines,
    nowMs: change.atMs,
    audit: change.audit.map((entry) => ({ ...entry, timestamp, fromUserId: actor.userId })),
  };
  // Stored at revision 1: revision 0 means "not stored", which the next change of it would write on.
  const firstChange = () => ({
    otherDefaults: type.defaults
      .filter((template) => template.id !== change.next.id)
      .map((template) => ({ ...defaultPipeline(template), revision: 1 })),
    livePipelines: type.defaults.length + change.livePipelinesDelta,
  });
  if (change.current && !change.current.isStored)
    return pipelines.writePipeline(actor.hubId, type.id, { ...base, expectedRevision: 0, firstChange: firstChange() });
  const outcome = await pipelines.writePipeline(actor.hubId, type.id, {
    ...base,
    expectedRevision: change.current?.pipeline.revision ?? 0,
    livePipelinesDelta: change.livePipelinesDelta,
  });
  if (outcome !== 'not-stored-yet') return outcome;
  return pipelines.writePipeline(actor.hubId, type.id, { ...base, expectedRevision: 0, firstChange: firstChange() });
}

const maxAttempts = 6;

interface Decided<T> {
  change: Change;
  result: T;
  /** The answer when a pipeline to create exists under the id asked for; absent: try again (a generated id). */
  onIdTaken?: () => Error;
}

/**
 * Reads, decides and writes until the write finds what it read: a change that lost a race is
 * decided again against the winner's result. Domain errors thrown by `decide` end it.
 */
async function changeWithRetries<T>(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  decide: () => Promise<Decided<T>>,
): Promise<T> {
  for (let round = 0; round < maxAttempts; round += 1) {
    if (round > 0) await new Promise((resolve) => setTimeout(resolve, Math.random() * 5 * 2 ** round));
    const { change, result, onIdTaken } = await decide();
    const outcome = await commit(actor, type, change);
    if (outcome === 'saved') return result;
    if (outcome === 'too-many') {
      throw new ValidationError(`An account has at most ${maxLivePipelines} live ${type.name} pipelines`, {
        context: { pipelineId: [change.next.id] },
      });
    }
    if (outcome === 'id-taken' && onIdTaken) throw onIdTaken();
  }
  throw new ConflictError(`Pipeline ${pipelineId} is being changed by other requests; retry the request.`, {
    context: { pipelineId: [pipelineId] },
  });
}

const pipelineTaken = (pipelineId: string) =>
  new ObjectAlreadyExistsError(`A pipeline with id ${pipelineId} already exists`, {
    context: { pipelineId: [pipelineId] },
  });

/** Stages from a pipeline input: ids given or generated (unique within the pipeline), existing ones kept by id, else by label. */
function buildStages(
  type: PipelineObjectType,
  inputs: readonly StageInput[],
  existing: readonly StoredStage[],
  now: string,
): StoredStage[] {
  const taken = new Set(inputs.flatMap((input) => (input.stageId === undefined ? [] : [input.stageId])));
  if (taken.size !== inputs.filter((input) => input.stageId !== undefined).length) {
    const duplicate = inputs.find(
      (input, index) =>
        input.stageId !== undefined && inputs.findIndex((other) => other.stageId === input.stageId) !== index,
    );
    throw new ValidationError(`Stage ids must be unique within a pipeline: ${duplicate?.stageId ?? ''} is used twice`, {
      context: { 'stages.stageId': [duplicate?.stageId ?? ''] },
    });
  }
  const unclaimed = existing.filter((stage) => !taken.has(stage.id));
  // A generated id is none of the given ones, nor any existing stage's.
  const unavailable = new Set([...taken, ...existing.map((stage) => stage.id)]);
  return inputs.map((input, index) => {
    const previous =
      input.stageId !== undefined
        ? existing.find((stage) => stage.id === input.stageId)
        : unclaimed.find((stage) => stage.label.toLowerCase() === input.label.trim().toLowerCase());
    let id = input.stageId ?? previous?.id;
    while (id === undefined || (unavailable.has(id) && id !== input.stageId && id !== previous?.id))
      id = randomNumericId();
    unavailable.add(id);
    return buildStage(type, input, id, previous?.createdAt ?? now, now, `stages[${index}].`);
  });
}

export async function createPipeline(
  actor: PipelineActor,
  type: PipelineObjectType,
  input: PipelineInput,
): Promise<PipelineView> {
  if (input.pipelineId !== undefined && (await findCurrentPipeline(actor.hubId, type, input.pipelineId)))
    throw pipelineTaken(input.pipelineId);
  return changeWithRetries(actor, type, input.pipelineId ?? 'new', async () => {
    const atMs = nowMs();
    const now = new Date(atMs).toISOString();
    const stages = buildStages(type, input.stages, [], now);
    requireValidStages(stages, 'stages.');
    const next: StoredPipeline = {
      id: input.pipelineId ?? randomNumericId(),
      label: requireLabel(input.label, 'label'),
      displayOrder: input.displayOrder,
      stages,
      archived: false,
      createdAt: now,
      updatedAt: now,
      revision: 1,
    };
    const view = pipelineView(next);
    return {
      change: {
        next,
        livePipelinesDelta: 1,
        atMs,
        audit: [{ pipelineId: next.id, action: 'CREATE', message: `Pipeline ${next.label} created`, rawObject: view }],
      },
      result: view,
      ...(input.pipelineId === undefined ? {} : { onIdTaken: () => pipelineTaken(next.id) }),
    };
  });
}

/** PUT: label, order and the whole list of stages; stages left out are deleted (refused while records stand in them). */
export async function replacePipeline(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  input: Omit<PipelineInput, 'pipelineId'>,
  flags: DeleteFlags,
): Promise<PipelineView> {
  return changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    const atMs = nowMs();
    const now = new Date(atMs).toISOString();
    const stages = buildStages(type, input.stages, current.pipeline.stages, now);
    requireValidStages(stages, 'stages.');
    const kept = new Set(stages.map((stage) => stage.id));
    await requireStagesUnused(
      actor,
      type,
      pipelineId,
      current.pipeline.stages.filter((stage) => !kept.has(stage.id)).map((stage) => stage.id),
      flags,
    );
    const next: StoredPipeline = {
      ...current.pipeline,
      label: requireLabel(input.label, 'label'),
      displayOrder: input.displayOrder,
      stages,
      updatedAt: now,
      revision: current.pipeline.revision + 1,
    };
    const view = pipelineView(next);
    return {
      change: {
        current,
        next,
        livePipelinesDelta: 0,
        atMs,
        audit: [{ pipelineId, action: 'UPDATE', message: `Pipeline ${next.label} replaced`, rawObject: view }],
      },
      result: view,
    };
  });
}

export interface PipelinePatch {
  label?: string;
  displayOrder?: number;
  /** Only `false`, and only to restore an archived pipeline (HubSpot answers 400 to it in any other call). */
  archived?: boolean;
}

export async function updatePipeline(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  patch: PipelinePatch,
): Promise<PipelineView> {
  return changeWithRetries(actor, type, pipelineId, async () => {
    const current = await findCurrentPipeline(actor.hubId, type, pipelineId);
    if (!current || (current.pipeline.archived && patch.archived !== false)) throw pipelineNotFound(pipelineId);
    const isRestore = current.pipeline.archived;
    if (!isRestore && patch.archived !== undefined) {
      throw new ValidationError(
        'archived may only be sent as false, to restore an archived pipeline; archive one with DELETE',
        { context: { archived: [String(patch.archived)] } },
      );
    }
    const atMs = nowMs();
    const now = new Date(atMs).toISOString();
    const { archivedAt, ...rest } = current.pipeline;
    void archivedAt;
    const next: StoredPipeline = {
      ...rest,
      label: patch.label === undefined ? current.pipeline.label : requireLabel(patch.label, 'label'),
      displayOrder: patch.displayOrder ?? current.pipeline.displayOrder,
      archived: false,
      updatedAt: now,
      revision: current.pipeline.revision + 1,
    };
    const view = pipelineView(next);
    return {
      change: {
        current,
        next,
        livePipelinesDelta: isRestore ? 1 : 0,
        atMs,
        audit: [
          {
            pipelineId,
            action: 'UPDATE',
            message: `Pipeline ${next.label} ${isRestore ? 'restored' : 'updated'}`,
            rawObject: view,
          },
        ],
      },
      result: view,
    };
  });
}

/** DELETE: the pipeline is archived (kept, restorable with PATCH archived=false); refused while records stand in its stages. */
export async function archivePipeline(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  flags: DeleteFlags,
): Promise<void> {
  await changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    await requireStagesUnused(
      actor,
      type,
      pipelineId,
      current.pipeline.stages.map((stage) => stage.id),
      flags,
    );
    const atMs = nowMs();
    const now = new Date(atMs).toISOString();
    const next: StoredPipeline = {
      ...current.pipeline,
      archived: true,
      archivedAt: now,
      updatedAt: now,
      revision: current.pipeline.revision + 1,
    };
    return {
      change: {
        current,
        next,
        livePipelinesDelta: -1,
        atMs,
        audit: [
          { pipelineId, action: 'DELETE', message: `Pipeline ${next.label} archived`, rawObject: pipelineView(next) },
        ],
      },
      result: undefined,
    };
  });
}

/** A change of one stage: the pipeline rewritten with it, the audit entry listed by the pipeline and by the stage. */
function stageChange(
  current: CurrentPipeline,
  stages: StoredStage[],
  stage: StoredStage,
  action: PipelineAuditEntry['action'],
  verb: string,
  atMs: number,
): Change {
  const now = new Date(atMs).toISOString();
  const next: StoredPipeline = { ...current.pipeline, stages, updatedAt: now, revision: current.pipeline.revision + 1 };
  return {
    current,
    next,
    livePipelinesDelta: 0,
    atMs,
    audit: [
      {
        pipelineId: next.id,
        stageId: stage.id,
        action,
        message: `Stage ${stage.label} ${verb}`,
        rawObject: stageView(stage),
      },
    ],
  };
}

const stageTaken = (pipelineId: string, stageId: string) =>
  new ObjectAlreadyExistsError(`Pipeline ${pipelineId} already has a stage with id ${stageId}`, {
    context: { stageId: [stageId] },
  });

export async function createStage(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  input: StageInput,
): Promise<PipelineStageView> {
  return changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    const existing = current.pipeline.stages;
    if (input.stageId !== undefined && existing.some((stage) => stage.id === input.stageId))
      throw stageTaken(pipelineId, input.stageId);
    let id = input.stageId;
    while (id === undefined || (input.stageId === undefined && existing.some((stage) => stage.id === id)))
      id = randomNumericId();
    const atMs = nowMs();
    const stage = buildStage(type, input, id, new Date(atMs).toISOString(), new Date(atMs).toISOString(), '');
    const stages = [...existing, stage];
    requireValidStages(stages, '');
    return { change: stageChange(current, stages, stage, 'CREATE', 'created', atMs), result: stageView(stage) };
  });
}

/** PUT: label, order and metadata (the type's rule applies to the whole of it). */
export async function replaceStage(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  stageId: string,
  input: Omit<StageInput, 'stageId'>,
): Promise<PipelineStageView> {
  return changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    const previous = requireStage(current.pipeline, stageId);
    const atMs = nowMs();
    const stage = buildStage(type, input, stageId, previous.createdAt, new Date(atMs).toISOString(), '');
    const stages = current.pipeline.stages.map((candidate) => (candidate.id === stageId ? stage : candidate));
    requireValidStages(stages, '');
    return { change: stageChange(current, stages, stage, 'UPDATE', 'replaced', atMs), result: stageView(stage) };
  });
}

export interface StagePatch {
  label?: string;
  displayOrder?: number;
  /** Merged into the stage's metadata; the type's rule applies to the result. */
  metadata?: MetadataInput;
  archived?: boolean;
}

export async function updateStage(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  stageId: string,
  patch: StagePatch,
): Promise<PipelineStageView> {
  if (patch.archived !== undefined) {
    throw new ValidationError('archived may not be changed here: archive a stage with DELETE', {
      context: { archived: [String(patch.archived)] },
    });
  }
  return changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    const previous = requireStage(current.pipeline, stageId);
    const atMs = nowMs();
    const stage = buildStage(
      type,
      {
        label: patch.label ?? previous.label,
        displayOrder: patch.displayOrder ?? previous.displayOrder,
        metadata: { ...previous.metadata, ...patch.metadata },
      },
      stageId,
      previous.createdAt,
      new Date(atMs).toISOString(),
      '',
    );
    const stages = current.pipeline.stages.map((candidate) => (candidate.id === stageId ? stage : candidate));
    requireValidStages(stages, '');
    return { change: stageChange(current, stages, stage, 'UPDATE', 'updated', atMs), result: stageView(stage) };
  });
}

/** DELETE: the stage leaves the pipeline (its audit entries stay); refused while records stand in it, and for a pipeline's last stage. */
export async function archiveStage(
  actor: PipelineActor,
  type: PipelineObjectType,
  pipelineId: string,
  stageId: string,
  flags: DeleteFlags,
): Promise<void> {
  await changeWithRetries(actor, type, pipelineId, async () => {
    const current = await requireLivePipeline(actor.hubId, type, pipelineId);
    const stage = requireStage(current.pipeline, stageId);
    if (current.pipeline.stages.length === 1) {
      throw new ValidationError(
        `Stage ${stageId} is the last stage of pipeline ${pipelineId}: a pipeline keeps at least one stage`,
        { context: { stageId: [stageId] } },
      );
    }
    await requireStagesUnused(actor, type, pipelineId, [stageId], flags);
    const atMs = nowMs();
    const stages = current.pipeline.stages.filter((candidate) => candidate.id !== stageId);
    return {
      change: stageChange(
        current,
        stages,
        { ...stage, updatedAt: new Date(atMs).toISOString() },
        'DELETE',
        'archived',
        atMs,
      ),
      result: undefined,
    };
  });
}
