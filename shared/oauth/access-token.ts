import { createPublicKey, randomBytes, sign, verify, type KeyObject } from 'node:crypto';
import { config } from '../base/config';
import { nowSeconds } from '../base/clock';
import { defaultRateLimits, type RateLimits } from '../limits/rate-limits';
import { decodeScopeMask, encodeScopeMask, type Scope } from './scopes';

/**
 * Access tokens are self-contained: base64url(JSON claims) "." base64url(Ed25519 signature).
 * Any function verifies them in-process with the public keys from its configuration:
 * no database read and no network call on the hot path.
 */
export const accessTokenVersion = 1;
/**
 * The version of app tokens (client credentials), whose wire claims add the kind (`c`). Account
 * tokens stay at version 1, which every deployment verifies; a deployment that predates app tokens
 * refuses version 2 rather than reading one as an account token of hub 0.
 */
export const appTokenVersion = 2;
export const accessTokenLifetimeSeconds = 1800;
export const maxAccessTokenLength = 512;

/**
 * 'account': issued to an install of the app in an account (an authorization code or a refresh);
 * 'app': issued to the app itself by the client-credentials grant, with no account and no user
 * (hubId and userId 0): account routes refuse it (checkAccessToken).
 */
export type AccessTokenKind = 'account' | 'app';

export interface AccessTokenClaims {
  kind: AccessTokenKind;
  appId: number;
  hubId: number;
  userId: number;
  scopes: Scope[];
  issuedAtSeconds: number;
  expiresAtSeconds: number;
  keyId: string;
  /** The grant this access token came from: the install's refresh token grant, or an app token's own record. */
  grantId: string;
  /** The account's rate limits when the token was issued (0 = none); absent in older tokens: the defaults. */
  rateLimits?: RateLimits;
  /** The install generation the token was issued in (shared/db/install-states.ts); absent for the first. */
  installGeneration?: string;
  /** Issued for a test account (the sandbox controls): its calls are checked for injected faults. */
  isTestAccount?: boolean;
}

interface WireClaims {
  v: number;
  k: string;
  a: number;
  h: number;
  u: number;
  s: string;
  i: number;
  e: number;
  g: string;
  /** Random token id: two tokens minted in the same second still differ. */
  j: string;
  /** Ten-secondly limit of the install and search limit per second of the account. */
  r?: number;
  q?: number;
  /** Install generation, when not the first. */
  n?: string;
  /** 1 for a test account's token. */
  t?: number;
  /** Version 2 only: the kind, 'app' (the only kind written in version 2). */
  c?: string;
}

export type VerifyResult =
  | { outcome: 'valid'; claims: AccessTokenClaims }
  | { outcome: 'expired'; claims: AccessTokenClaims; expiredForSeconds: number }
  | { outcome: 'invalid' };

const tokenPattern = /^[A-Za-z0-9_-]{20,400}\.[A-Za-z0-9_-]{86}$/;
/** Install generations are short random base64url ids (shared/oauth/install-status.ts). */
export const installGenerationPattern = /^[A-Za-z0-9_-]{1,32}$/;

/** The public keys by key id, parsed on the first verification: a function that verifies no token never parses them. */
let publicKeys: Map<string, KeyObject> | undefined;

function publicKeyOf(kid: string): KeyObject | undefined {
  publicKeys ??= new Map(
    Object.entries(config.tokenPublicKeys).map(([id, der]) => [
      id,
      createPublicKey({ key: Buffer.from(der, 'base64'), format: 'der', type: 'spki' }),
    ]),
  );
  return publicKeys.get(kid);
}

export function signAccessToken(
  claims: Omit<AccessTokenClaims, 'keyId'>,
  key: { kid: string; privateKey: KeyObject },
): string {
  const wire: WireClaims = {
    v: claims.kind === 'app' ? appTokenVersion : accessTokenVersion,
    k: key.kid,
    a: claims.appId,
    h: claims.hubId,
    u: claims.userId,
    s: encodeScopeMask(claims.scopes),
    i: claims.issuedAtSeconds,
    e: claims.expiresAtSeconds,
    g: claims.grantId,
    j: randomBytes(6).toString('base64url'),
    ...(claims.rateLimits ? { r: claims.rateLimits.tenSecondly, q: claims.rateLimits.searchPerSecond } : {}),
    ...(claims.installGeneration ? { n: claims.installGeneration } : {}),
    ...(claims.isTestAccount ? { t: 1 } : {}),
    ...(claims.kind === 'app' ? { c: 'app' } : {}),
  };
  const payload = Buffer.from(JSON.stringify(wire)).toString('base64url');
  const signature = sign(null, Buffer.from(payload), key.privateKey).toString('base64url');
  return `${payload}.${signature}`;
}

function isSafeInt(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/**
 * The bytes of base64url text, or undefined unless the text is their one canonical spelling. The
 * last character of a 64-byte signature carries 4 bits that decoding ignores, so without this
 * check every token had 16 accepted spellings (and 16 entries in the verified-token cache).
 */
function decodeCanonicalBase64url(text: string): Buffer | undefined {
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function parseWireClaims(payload: string): WireClaims | undefined {
  const bytes = decodeCanonicalBase64url(payload);
  if (!bytes) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const c = parsed as Record<string, unknown>;
  // Version 1 is an account token (no kind); version 2 names its kind, 'app'.
  if (c.v === accessTokenVersion ? c.c !== undefined : c.v !== appTokenVersion || c.c !== 'app') return undefined;
  if (typeof c.k !== 'string' || typeof c.s !== 'string' || typeof c.g !== 'string' || typeof c.j !== 'string')
    return undefined;
  if (![c.a, c.h, c.u, c.i, c.e].every(isSafeInt)) return undefined;
  if ((c.r !== undefined && !isSafeInt(c.r)) || (c.q !== undefined && !isSafeInt(c.q))) return undefined;
  if (c.n !== undefined && (typeof c.n !== 'string' || !installGenerationPattern.test(c.n))) return undefined;
  if (c.t !== undefined && c.t !== 1) return undefined;
  return c as unknown as WireClaims;
}

/**
 * Tokens whose signature this instance has already checked. A client sends the same access
 * token with every call for up to 30 minutes, and the Ed25519 verify costs more than the rest
 * of the auth step together. Only tokens that verified are kept (the token string is the
 * signed bytes, so a hit is the same signature check's answer); expiry is still checked on
 * every use. Bounded: the oldest entry goes first.
 */
const verifiedTokens = new Map<string, AccessTokenClaims>();
const maxVerifiedTokens = 1000;

function verifySignedClaims(token: string): AccessTokenClaims | undefined {
  const cached = verifiedTokens.get(token);
  if (cached) return cached;
  if (token.length > maxAccessTokenLength || !tokenPattern.test(token)) return undefined;
  const [payload = '', signature = ''] = token.split('.');
  const wire = parseWireClaims(payload);
  if (!wire) return undefined;
  const key = publicKeyOf(wire.k);
  const signatureBytes = decodeCanonicalBase64url(signature);
  if (!key || !signatureBytes || !verify(null, Buffer.from(payload), key, signatureBytes)) return undefined;
  const scopes = decodeScopeMask(wire.s);
  if (!scopes) return undefined;
  const claims: AccessTokenClaims = {
    kind: wire.c === 'app' ? 'app' : 'account',
    appId: wire.a,
    hubId: wire.h,
    userId: wire.u,
    scopes,
    issuedAtSeconds: wire.i,
    expiresAtSeconds: wire.e,
    keyId: wire.k,
    grantId: wire.g,
    rateLimits: {
      tenSecondly: wire.r ?? defaultRateLimits.tenSecondly,
      searchPerSecond: wire.q ?? defaultRateLimits.searchPerSecond,
    },
    ...(wire.n === undefined ? {} : { installGeneration: wire.n }),
    ...(wire.t === 1 ? { isTestAccount: true } : {}),
  };
  // Shared by every later request with this token: nobody may change it.
  Object.freeze(claims.scopes);
  Object.freeze(claims.rateLimits);
  Object.freeze(claims);
  if (verifiedTokens.size >= maxVerifiedTokens) verifiedTokens.delete(verifiedTokens.keys().next().value ?? '');
  verifiedTokens.set(token, claims);
  return claims;
}

export function verifyAccessToken(token: string): VerifyResult {
  const claims = verifySignedClaims(token);
  if (!claims) return { outcome: 'invalid' };
  const now = nowSeconds();
  if (now >= claims.expiresAtSeconds)
    return { outcome: 'expired', claims, expiredForSeconds: now - claims.expiresAtSeconds };
  return { outcome: 'valid', claims };
}
