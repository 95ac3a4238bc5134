import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { nowMs } from '../base/clock';

/**
 * The install pages' browser session: a signed cookie holding a random session id and,
 * after login, the user. CSRF tokens are an HMAC of the session id, so a form is only
 * accepted from the browser that holds the cookie.
 */
export const sessionCookieName = 'hs_install_session';
export const sessionLifetimeSeconds = 3600;

export interface Session {
  sessionId: string;
  userEmail?: string;
  expiresAtMs: number;
}

function mac(secret: Buffer, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

function equalStrings(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export function newSession(userEmail?: string): Session {
  return {
    sessionId: randomBytes(18).toString('base64url'),
    userEmail,
    expiresAtMs: nowMs() + sessionLifetimeSeconds * 1000,
  };
}

export function encodeSession(session: Session, secret: Buffer): string {
  const payload = Buffer.from(JSON.stringify(session)).toString('base64url');
  return `${payload}.${mac(secret, `session:${payload}`)}`;
}

export function decodeSession(cookie: string | undefined, secret: Buffer): Session | undefined {
  if (!cookie || cookie.length > 2048) return undefined;
  const [payload = '', signature = '', extra] = cookie.split('.');
  if (extra !== undefined || !equalStrings(signature, mac(secret, `session:${payload}`))) return undefined;
  try {
    const session = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Session;
    if (
      typeof session.sessionId !== 'string' ||
      typeof session.expiresAtMs !== 'number' ||
      session.expiresAtMs <= nowMs()
    )
      return undefined;
    if (session.userEmail !== undefined && typeof session.userEmail !== 'string') return undefined;
    return session;
  } catch {
    return undefined;
  }
}

export function sessionCookie(session: Session, secret: Buffer, isSecure: boolean): string {
  return [
    `${sessionCookieName}=${encodeSession(session, secret)}`,
    'Path=/oauth',
    'HttpOnly',
    'SameSite=Lax',
    `Max-Age=${sessionLifetimeSeconds}`,
    ...(isSecure ? ['Secure'] : []),
  ].join('; ');
}

export function csrfToken(session: Session, secret: Buffer): string {
  return mac(secret, `csrf:${session.sessionId}`);
}

export function isValidCsrfToken(session: Session, token: string | undefined, secret: Buffer): boolean {
  return token !== undefined && equalStrings(token, csrfToken(session, secret));
}
