import { AppError, InternalError, ServiceUnavailableError, type AppErrorOptions } from '../base/errors';
import { WriteHeldError } from '../db/repository-errors';
import { findFaultGate, takeFault, type Fault } from '../db/faults';
import { installPolicy, searchPolicy } from '../limits/rate-limits';
import { rateLimitError, rateLimitHeaders } from './rate-limit';
import type { AuthContext } from './auth';

/** What HubSpot's gateway answers when the service behind it failed (502) or did not answer in time (504). */
class BadGatewayError extends AppError {
  readonly status = 502;
  readonly category = 'BAD_GATEWAY';
}
class GatewayTimeoutError extends AppError {
  readonly status = 504;
  readonly category = 'GATEWAY_TIMEOUT';
}

/** The request as a fault matches it: its method, the route's path template (the row's or alias's) and the path sent. */
export interface FaultTarget {
  method: string;
  routePath: string;
  rawPath: string;
}

/**
 * A fault matches a call whose method is its method (any, when it names none) and whose route path
 * template is its path, or whose path starts with it (`/crm/v3/objects/contacts` matches
 * `/crm/v3/objects/contacts/51`; a prefix ends at a segment boundary).
 */
export function faultMatches(fault: Pick<Fault, 'method' | 'path'>, target: FaultTarget): boolean {
  if (fault.method !== undefined && fault.method !== target.method) return false;
  if (fault.path === target.routePath) return true;
  const prefix = fault.path.endsWith('/') ? fault.path : `${fault.path}/`;
  return target.rawPath === fault.path || target.rawPath.startsWith(prefix);
}

/** The error a fault answers: a 429 exactly as the rate limiter's (its message, policy and headers), or the 5xx error object. */
export function faultError(fault: Fault, auth: AuthContext): AppError {
  const message = 'This error was injected by a fault of the test account (sandbox controls).';
  const options: AppErrorOptions = { context: { faultId: [fault.id] } };
  if (fault.status === 429) {
    const policy = fault.policyName === searchPolicy.name ? searchPolicy : installPolicy;
    return rateLimitError(policy, rateLimitHeaders(policy, auth.rateLimits?.tenSecondly ?? 0, 0));
  }
  if (fault.status === 502) return new BadGatewayError(message, options);
  if (fault.status === 503) return new ServiceUnavailableError(message, options);
  if (fault.status === 504) return new GatewayTimeoutError(message, options);
  return new InternalError(message, options);
}

/**
 * The fault that answers this call, if one matches: only a test account's token (its claim) is
 * looked at, with one Query of the account's faults partition (a reset or delete holding the
 * account answers instead: WriteHeldError); the first matching fault with calls left is
 * counted down on condition (concurrent calls take each count once). Every other caller pays nothing.
 */
export async function injectedFault(auth: AuthContext | undefined, target: FaultTarget): Promise<Fault | undefined> {
  if (!auth?.isTestAccount) return undefined;
  const { faults, hold } = await findFaultGate(auth.hubId);
  if (hold) throw new WriteHeldError(auth.hubId, hold);
  for (const fault of faults) {
    if (!faultMatches(fault, target)) continue;
    const taken = await takeFault(auth.hubId, fault.id);
    if (!taken) continue;
    return taken;
  }
  return undefined;
}
