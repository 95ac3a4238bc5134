import { randomBytes } from 'node:crypto';
import { deleteFault, insertFault, listFaults, reclaimSpentFaults, type Fault } from '../db/faults';
import { NotFoundError, ValidationError } from '../base/errors';
import { requireTestAccount, type Developer } from './access';

/** The statuses a fault may answer: HubSpot's rate limit and the transient server errors its clients must retry. */
export const faultStatuses = [429, 500, 502, 503, 504] as const;
export const faultPolicies = ['TEN_SECONDLY_ROLLING', 'SECONDLY'] as const;
export const faultMethods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const maxFaultCount = 1000;
export const maxFaultDelayMs = 10_000;
/** Faults per account: every call of a test account's tokens reads them all (one Query). A spent fault's place is reclaimed by the next create that needs it. */
export const maxActiveFaults = 20;

export interface FaultInput {
  method?: (typeof faultMethods)[number];
  path: string;
  status: (typeof faultStatuses)[number];
  count: number;
  policyName?: (typeof faultPolicies)[number];
  delayMs?: number;
}

export interface FaultView {
  id: string;
  method: string | null;
  path: string;
  status: number;
  count: number;
  remaining: number;
  policyName: string | null;
  delayMs: number;
}

const viewOf = (fault: Fault): FaultView => ({
  id: fault.id,
  method: fault.method ?? null,
  path: fault.path,
  status: fault.status,
  count: fault.count,
  remaining: fault.remaining,
  policyName: fault.status === 429 ? (fault.policyName ?? 'TEN_SECONDLY_ROLLING') : null,
  delayMs: fault.delayMs ?? 0,
});

/** Ids that sort by creation (a fault created first answers first when two match), then random. */
const newFaultId = (): string => `${Date.now().toString(36).padStart(10, '0')}${randomBytes(5).toString('hex')}`;

/**
 * The next `count` calls of the account's installs that match `method` and `path` (a route path
 * template such as `/crm/v3/objects/{objectType}`, or a prefix of the path sent) answer `status`
 * instead of running (shared/http/fault-injection.ts). The schema has checked types and ranges; the rules
 * that join fields are here.
 */
export async function createFault(developer: Developer, hubIdText: string, input: FaultInput): Promise<{ id: string }> {
  const link = await requireTestAccount(developer, hubIdText);
  if (input.policyName !== undefined && input.status !== 429)
    throw new ValidationError('policyName applies to a 429 fault only', {
      context: { policyName: [input.policyName] },
    });
  const id = newFaultId();
  const fault: Fault = {
    id,
    hubId: link.hubId,
    ...(input.method ? { method: input.method } : {}),
    path: input.path,
    status: input.status,
    count: input.count,
    remaining: input.count,
    ...(input.policyName ? { policyName: input.policyName } : {}),
    ...(input.delayMs ? { delayMs: input.delayMs } : {}),
    createdAt: new Date().toISOString(),
  };
  // The cap is the count item's condition in the create's own transaction; a full account's spent faults are reclaimed once.
  let outcome = await insertFault(fault, maxActiveFaults);
  if (outcome === 'full' && (await reclaimSpentFaults(link.hubId)) > 0)
    outcome = await insertFault(fault, maxActiveFaults);
  if (outcome === 'full')
    throw new ValidationError(`A test account holds at most ${maxActiveFaults} active faults; delete one first.`, {
      context: { faults: [String(maxActiveFaults)] },
    });
  return { id };
}

export async function listAccountFaults(developer: Developer, hubIdText: string): Promise<{ results: FaultView[] }> {
  const link = await requireTestAccount(developer, hubIdText);
  return { results: (await listFaults(link.hubId)).map(viewOf) };
}

export async function removeFault(developer: Developer, hubIdText: string, faultId: string): Promise<void> {
  const link = await requireTestAccount(developer, hubIdText);
  if (!(await deleteFault(link.hubId, faultId)))
    throw new NotFoundError(`No fault ${faultId} in test account ${hubIdText}`, { context: { faultId: [faultId] } });
}
