import { randomBytes } from 'node:crypto';
import { findInstallState, type InstallState } from '../db/install-states';
import { nowMs } from '../base/clock';

/** Where a token (access or refresh) comes from: its install, its generation and its grant. */
export interface InstallBinding {
  hubId: number;
  appId: number;
  grantId: string;
  /** '' for the first install of the app in the account. */
  installGeneration: string;
}

/** 'ended': the install was ended (or replaced by a later one); 'revoked': the token's grant was revoked for a replayed code. */
export type Standing = 'live' | 'ended' | 'revoked';

/** The standing of a token in the install state read for it (undefined: no item, the first install stands). */
export function standingIn(
  state: InstallState | undefined,
  binding: Pick<InstallBinding, 'grantId' | 'installGeneration'>,
): Standing {
  if (!state) return binding.installGeneration === '' ? 'live' : 'ended';
  if (state.endedAt !== undefined || state.generation !== binding.installGeneration) return 'ended';
  if (state.revokedGrants && Object.hasOwn(state.revokedGrants, binding.grantId)) return 'revoked';
  return 'live';
}

/** What a call with a token of an ended install is told (401), by the auth step and by a second uninstall. */
export const endedInstallMessage =
  'The access token is no longer valid: the app was uninstalled from this account. Install it again to get new tokens.';

/** The generation of an install made after its predecessor ended. */
export function newInstallGeneration(): string {
  return randomBytes(8).toString('base64url');
}

/**
 * How long a function instance trusts an install state it read. An ended install's access tokens
 * (and those of a grant revoked for a replayed code) stop working within this time on every
 * instance; the instance that ended it knows at once.
 */
export const installStateMaxAgeMs = 60_000;
/** A token issued less than this before the state was read may be of an install made since: read again. */
const issueTimeMarginMs = 2_000;
/** Bounded like the verified-token cache: the oldest entry goes first. */
const maxCachedStates = 1000;

interface CachedState {
  state: InstallState | undefined;
  readAtMs: number;
}

const cachedStates = new Map<string, CachedState>();
const cacheKey = (hubId: number, appId: number) => `${hubId}:${appId}`;

/** What this instance knows now of an install (after ending it, say): used until it is older than installStateMaxAgeMs. */
export function rememberInstallState(hubId: number, appId: number, state: InstallState | undefined): void {
  const key = cacheKey(hubId, appId);
  cachedStates.delete(key);
  if (cachedStates.size >= maxCachedStates) cachedStates.delete(cachedStates.keys().next().value ?? '');
  cachedStates.set(key, { state, readAtMs: nowMs() });
}

/** Drops what this instance knows, so the next check of that install (or of any, without arguments) reads it. */
export function forgetInstallState(hubId?: number, appId?: number): void {
  if (hubId === undefined || appId === undefined) cachedStates.clear();
  else cachedStates.delete(cacheKey(hubId, appId));
}

/**
 * The standing of an access token, from a state this instance read at most installStateMaxAgeMs ago:
 * one strongly consistent GetItem per install per instance per minute, none on the other calls. A
 * token that the cached state refuses but that was issued after it was read (the app was installed
 * again on another instance since) makes it read again, so a new install's tokens work at once.
 */
export async function standingOfAccessToken(claims: {
  hubId: number;
  appId: number;
  grantId: string;
  installGeneration?: string;
  issuedAtSeconds: number;
}): Promise<Standing> {
  const binding = { grantId: claims.grantId, installGeneration: claims.installGeneration ?? '' };
  const cached = cachedStates.get(cacheKey(claims.hubId, claims.appId));
  if (cached && nowMs() - cached.readAtMs < installStateMaxAgeMs) {
    const standing = standingIn(cached.state, binding);
    if (standing === 'live' || claims.issuedAtSeconds * 1000 < cached.readAtMs - issueTimeMarginMs) return standing;
  }
  const state = await findInstallState(claims.hubId, claims.appId);
  rememberInstallState(claims.hubId, claims.appId, state);
  return standingIn(state, binding);
}
