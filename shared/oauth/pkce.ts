import { createHash, timingSafeEqual } from 'node:crypto';
import { OAuthError } from '../base/errors';

/**
 * PKCE (RFC 7636), S256 only: the install URL carries code_challenge = BASE64URL(SHA256(verifier)),
 * the code stores it, and the token exchange must present the verifier.
 */
const challengePattern = /^[A-Za-z0-9_-]{43}$/;
const verifierPattern = /^[A-Za-z0-9._~-]{43,128}$/;

export type ChallengeCheck = { outcome: 'ok'; codeChallenge?: string } | { outcome: 'invalid'; description: string };

/** Checks the install URL's PKCE parameters; a problem is reported to the app by redirect (invalid_request). */
export function checkCodeChallenge(codeChallenge: string | undefined, method: string | undefined): ChallengeCheck {
  if (codeChallenge === undefined && method === undefined) return { outcome: 'ok' };
  if (codeChallenge === undefined)
    return { outcome: 'invalid', description: 'code_challenge_method was sent without code_challenge.' };
  // RFC 7636 4.3: a missing method means plain, which this server does not accept.
  if (method !== 'S256') return { outcome: 'invalid', description: 'code_challenge_method must be S256.' };
  if (!challengePattern.test(codeChallenge)) {
    return {
      outcome: 'invalid',
      description: 'code_challenge must be the 43-character base64url SHA-256 of the code verifier.',
    };
  }
  return { outcome: 'ok', codeChallenge };
}

export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/**
 * The token exchange's side: a code issued with a challenge needs its verifier, and a verifier
 * sent for a code issued without one is refused too (a downgrade). Both are invalid_grant.
 */
export function requireMatchingVerifier(codeChallenge: string | undefined, verifier: string | undefined): void {
  if (codeChallenge === undefined) {
    if (verifier !== undefined) {
      throw new OAuthError(
        'BAD_CODE_VERIFIER',
        'invalid_grant',
        'code_verifier was sent, but the auth code was issued without a code_challenge',
        { context: { field: ['code_verifier'] } },
      );
    }
    return;
  }
  if (verifier === undefined) {
    throw new OAuthError(
      'BAD_CODE_VERIFIER',
      'invalid_grant',
      'missing code_verifier: the auth code was issued with a code_challenge',
      { context: { field: ['code_verifier'] } },
    );
  }
  const matches =
    verifierPattern.test(verifier) &&
    timingSafeEqual(Buffer.from(challengeOf(verifier)), Buffer.from(codeChallenge.padEnd(43).slice(0, 43)));
  if (!matches)
    throw new OAuthError('BAD_CODE_VERIFIER', 'invalid_grant', 'code_verifier does not match the code_challenge', {
      context: { field: ['code_verifier'] },
    });
}
