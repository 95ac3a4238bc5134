import { performance } from 'node:perf_hooks';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { dynamoCallCounter } from '../shared/db/client';
import { listJoinForm, listKey } from '../shared/db/keys';
import { membershipPuts } from '../shared/db/lists';
import { recordCountItems } from '../shared/db/order-index';
import { requireStoredObjectType } from '../shared/objects/object-types';
import { isBelowFloor, roundSummary, warmCachedState } from './api-latency';
import { totalCalls } from './budgets';
import { batchWrite } from './bulk-load';
import { contactId, contactItems } from './contact-search';
import {
  prepareFloor,
  recordCommands,
  setReturnConsumedCapacity,
  timeFloorReplay,
  type RecordedCommand,
} from './dynamo-recorder';
import { jsonRequest, type ApiClient, type ApiRequest } from './http-client';
import { createDynamicList } from './list-accounts';
import { ratio, round, summarize, type LatencySummary } from './stats';

/**
 * Lists at size. (1) A page of 100 members of a MANUAL list, by record id and by join order, at each
 * size: its DynamoDB calls (the same at every size) and its p50 against its floor (the calls the page
 * sent, replayed in their recorded overlap through the service's client). The members are written
 * straight to the table, as the add writes them (membershipPuts' three items each, BatchWriteItem).
 * (2) The first evaluation of a DYNAMIC list (the job of shared/lists/list-evaluation.ts) over an
 * account's contacts, loaded as creates write them: the time from the create's request until the list
 * is COMPLETE, and the calls and capacity the create and the job consumed.
 */
export const membershipCases = ['byId', 'joinOrder'] as const;
export type MembershipCase = (typeof membershipCases)[number];

export interface MembershipCaseResult {
  case: MembershipCase;
  calls: Record<string, number>;
  totalCalls: number;
  capacityUnits: number;
  api: LatencySummary;
  floor: LatencySummary;
  p50Ratio: number;
  isWithinTarget: boolean;
  isBelowFloor: boolean;
}

export interface MembershipLevel {
  members: number;
  loadSeconds: number;
  cases: MembershipCaseResult[];
}

export interface MembershipsReport {
  levels: MembershipLevel[];
  targetRatio: number;
  /** Each case made the same calls, by command, at every size. */
  isCallsFlat: boolean;
}

/** Calls, capacity and items read of one kind of command of the evaluation. */
export interface CommandTally {
  calls: number;
  capacityUnits: number;
  /** Items in the answers (Query Count, BatchGetItem responses); keys asked for, for BatchGetItem. */
  items: number;
  keys?: number;
}

export interface ListEvaluationReport {
  contacts: number;
  /** Contacts the list's filter matches: the members it has when COMPLETE. */
  matched: number;
  size: number;
  loadSeconds: number;
  /** From the create's request until the list's item says COMPLETE (polled every 100 ms). */
  seconds: number;
  byCommand: Record<string, CommandTally>;
  readUnits: number;
  writeUnits: number;
}

export interface ListsScaleReport {
  memberships?: MembershipsReport;
  evaluation?: ListEvaluationReport;
}

const contacts = requireStoredObjectType('contacts');
const listsPath = '/crm/v3/lists';
/** Member ids of the bulk load: 16 digits, fixed width as the service's, so the id order is the load's. */
const memberId = (index: number): string => String(1_800_000_000_000_000 + index);
const joinedAtMsOf = (index: number): number => Date.UTC(2025, 0, 1) + index * 1000;
/** Memberships built and written at a time (three items each). */
const loadChunk = 10_000;

function pageRequest(listId: string, memberCase: MembershipCase, index: number, token: string): ApiRequest {
  return memberCase === 'byId'
    ? jsonRequest('GET', `${listsPath}/${listId}/memberships?limit=100&after=${memberId(index)}`, token)
    : jsonRequest(
        'GET',
        `${listsPath}/${listId}/memberships/join-order?limit=100&after=${listJoinForm(joinedAtMsOf(index), memberId(index)).replace('#', '-')}`,
        token,
      );
}

async function sendPage(api: ApiClient, spec: ApiRequest, members: number) {
  const began = performance.now();
  const { result, commands } = await recordCommands(() => api.send(spec));
  const apiMs = performance.now() - began;
  if (result.status !== 200)
    throw new Error(`lists: ${spec.path} answered ${result.status}: ${result.body.slice(0, 300)}`);
  const body = JSON.parse(result.body) as { results: unknown[]; total: number };
  if (body.total !== members || body.results.length !== 100)
    throw new Error(
      `lists: ${spec.path} answered ${body.results.length} of total ${body.total}, not 100 of ${members}`,
    );
  return { apiMs, began, commands };
}

/** A page of 100 members by id and by join order at each size of one MANUAL contact list. */
export async function measureListMemberships(options: {
  api: ApiClient;
  loader: DynamoDBDocumentClient;
  tableName: string;
  token: string;
  hubId: number;
  levels: readonly number[];
  requests: number;
  /** Requests of each case sent first at each size and not counted. */
  warmup: number;
  targetRatio: number;
  random: () => number;
  log: (line: string) => void;
}): Promise<MembershipsReport> {
  const { api, loader, token, hubId } = options;
  const created = await api.expectOk(
    jsonRequest('POST', listsPath, token, { name: 'Bench members', objectTypeId: '0-1', processingType: 'MANUAL' }),
  );
  const { listId } = (JSON.parse(created.body) as { list: { listId: string } }).list;
  const list = { listId, objectTypeId: contacts.id, processingType: 'MANUAL' as const };
  const levels: MembershipLevel[] = [];
  let loaded = 0;
  for (const target of options.levels) {
    const began = performance.now();
    for (let start = loaded; start < target; start += loadChunk) {
      const items: Record<string, unknown>[] = [];
      for (let index = start; index < Math.min(target, start + loadChunk); index += 1)
        for (const write of membershipPuts(hubId, list, { recordId: memberId(index), joinedAtMs: joinedAtMsOf(index) }))
          if (write.Put?.Item) items.push(write.Put.Item);
      await batchWrite(loader, options.tableName, items, 8);
    }
    // A MANUAL list's size is its item's, which the add's transactions move.
    await loader.send(
      new UpdateCommand({
        TableName: options.tableName,
        Key: listKey(hubId, listId),
        UpdateExpression: 'SET #size = :size',
        ExpressionAttributeNames: { '#size': 'size' },
        ExpressionAttributeValues: { ':size': target },
      }),
    );
    loaded = target;
    const loadSeconds = (performance.now() - began) / 1000;
    options.log(
      `lists: ${target} members loaded (${(target - (levels.at(-1)?.members ?? 0)) * 3} items in ${loadSeconds.toFixed(1)} s)`,
    );
    const cases: MembershipCaseResult[] = [];
    for (const memberCase of membershipCases) {
      const costSpec = pageRequest(listId, memberCase, Math.floor((target - 101) / 2), token);
      await warmCachedState(costSpec);
      setReturnConsumedCapacity(true);
      dynamoCallCounter.reset();
      try {
        await sendPage(api, costSpec, target);
      } finally {
        setReturnConsumedCapacity(false);
      }
      const calls = Object.fromEntries(dynamoCallCounter.calls);
      const capacityUnits = round(dynamoCallCounter.capacityUnits, 2);
      const apiSamples: number[] = [];
      const floorSamples: number[] = [];
      for (let request = 0; request < options.warmup + options.requests; request += 1) {
        const index = Math.floor(options.random() * Math.max(1, target - 101));
        const {
          apiMs,
          began: sentAt,
          commands,
        } = await sendPage(api, pageRequest(listId, memberCase, index, token), target);
        const floorMs = await timeFloorReplay(prepareFloor(commands, undefined, sentAt));
        if (request < options.warmup) continue;
        apiSamples.push(apiMs);
        floorSamples.push(floorMs);
      }
      const apiSummary = summarize(apiSamples);
      const floorSummary = summarize(floorSamples);
      const p50Ratio = ratio(apiSummary.p50Ms, floorSummary.p50Ms);
      cases.push({
        case: memberCase,
        calls,
        totalCalls: totalCalls(calls),
        capacityUnits,
        api: roundSummary(apiSummary),
        floor: roundSummary(floorSummary),
        p50Ratio: round(p50Ratio, 3),
        isWithinTarget: p50Ratio <= options.targetRatio,
        isBelowFloor: isBelowFloor(apiSummary.p50Ms, floorSummary.p50Ms),
      });
      options.log(
        `lists: ${memberCase} page at ${target} members: p50 ${round(apiSummary.p50Ms)} ms, floor ${round(floorSummary.p50Ms)} ms`,
      );
    }
    levels.push({ members: target, loadSeconds: round(loadSeconds, 1), cases });
  }
  const callsOf = (memberCase: MembershipCase) =>
    levels.map((level) => JSON.stringify(level.cases.find((entry) => entry.case === memberCase)?.calls ?? {}));
  return {
    levels,
    targetRatio: options.targetRatio,
    isCallsFlat: membershipCases.every((memberCase) => new Set(callsOf(memberCase)).size <= 1),
  };
}

/** The evaluated list's filter: lastname `Contact5`, one contact in 97 of the load. */
const evaluationFilter = {
  filterBranchType: 'OR',
  filters: [],
  filterBranches: [
    {
      filterBranchType: 'AND',
      filterBranches: [],
      filters: [
        {
          filterType: 'PROPERTY',
          property: 'lastname',
          operation: { operationType: 'STRING', operator: 'IS_EQUAL_TO', value: 'Contact5' },
        },
      ],
    },
  ],
};

const readCommands = new Set(['QueryCommand', 'GetCommand', 'BatchGetCommand']);

function tallyCommands(commands: readonly RecordedCommand[]): Record<string, CommandTally> {
  const byCommand: Record<string, CommandTally> = {};
  for (const command of commands) {
    const name = command.commandClass.name;
    const tally = byCommand[name] ?? { calls: 0, capacityUnits: 0, items: 0 };
    byCommand[name] = tally;
    tally.calls += 1;
    tally.capacityUnits += command.capacityUnits ?? 0;
    tally.items += command.itemCount ?? 0;
    const requested = (command.input.RequestItems ?? {}) as Record<string, { Keys?: unknown[] }>;
    if (name === 'BatchGetCommand')
      tally.keys =
        (tally.keys ?? 0) + Object.values(requested).reduce((sum, entry) => sum + (entry.Keys?.length ?? 0), 0);
  }
  for (const tally of Object.values(byCommand)) tally.capacityUnits = round(tally.capacityUnits, 1);
  return byCommand;
}

/**
 * The first evaluation of a DYNAMIC contact list over `contacts` contacts: they are loaded as creates
 * write them (record, projection, ordered-index keys, the record counters), then the list is created
 * through the API and its item polled (the bench's own client, not the service's: the polls are not
 * counted) until COMPLETE. Every call the service sent meanwhile, the create's and the job's, is counted
 * with the capacity DynamoDB reported for it.
 */
export async function measureListEvaluation(options: {
  api: ApiClient;
  loader: DynamoDBDocumentClient;
  tableName: string;
  token: string;
  hubId: number;
  contacts: number;
  log: (line: string) => void;
}): Promise<ListEvaluationReport> {
  const { api, loader, token, hubId } = options;
  const loadBegan = performance.now();
  for (let start = 0; start < options.contacts; start += loadChunk) {
    const items: Record<string, unknown>[] = [];
    for (let index = start; index < Math.min(options.contacts, start + loadChunk); index += 1)
      items.push(...contactItems(hubId, index));
    await batchWrite(loader, options.tableName, items, 8);
  }
  const ids = Array.from({ length: options.contacts }, (_, index) => contactId(index));
  await batchWrite(loader, options.tableName, recordCountItems(contacts, hubId, ids), 8);
  const loadSeconds = (performance.now() - loadBegan) / 1000;
  options.log(`lists: ${options.contacts} contacts loaded for the evaluation in ${loadSeconds.toFixed(1)} s`);
  const matched = ids.filter((_id, index) => index % 97 === 5).length;
  const createSpec = jsonRequest('POST', listsPath, token, {});
  await warmCachedState(createSpec);
  setReturnConsumedCapacity(true);
  let seconds = Number.NaN;
  let listId = '';
  const { commands } = await recordCommands(async () => {
    const began = performance.now();
    listId = await createDynamicList(api, token, contacts.id, evaluationFilter, 'Bench evaluation');
    // Bounded by count: an hour of polls.
    for (let poll = 0; poll < 36_000; poll += 1) {
      const read = await loader.send(
        new GetCommand({ TableName: options.tableName, Key: listKey(hubId, listId), ConsistentRead: true }),
      );
      if (read.Item?.processingStatus === 'COMPLETE') {
        seconds = (performance.now() - began) / 1000;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`lists: the evaluation of list ${listId} was not COMPLETE after an hour`);
  }).finally(() => setReturnConsumedCapacity(false));
  const read = await api.expectOk(jsonRequest('GET', `${listsPath}/${listId}`, token));
  const { size } = (JSON.parse(read.body) as { list: { size: number } }).list;
  const byCommand = tallyCommands(commands);
  const sumUnits = (isRead: boolean) =>
    round(
      Object.entries(byCommand)
        .filter(([name]) => readCommands.has(name) === isRead)
        .reduce((sum, [, tally]) => sum + tally.capacityUnits, 0),
      1,
    );
  options.log(`lists: evaluation of ${options.contacts} contacts COMPLETE in ${seconds.toFixed(1)} s (size ${size})`);
  return {
    contacts: options.contacts,
    matched,
    size,
    loadSeconds: round(loadSeconds, 1),
    seconds: round(seconds, 2),
    byCommand,
    readUnits: sumUnits(true),
    writeUnits: sumUnits(false),
  };
}
