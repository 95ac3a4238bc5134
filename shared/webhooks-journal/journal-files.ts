import { createHmac, timingSafeEqual } from 'node:crypto';
import { nowMs } from '../base/clock';
import { ForbiddenError } from '../base/errors';
import { loadSessionSecret } from '../oauth/key-material';

/** How long an entry's URL answers after the read that handed it out. */
export const journalFileUrlSeconds = 15 * 60;

/** The path of the route that serves entry files (shared/routes.ts getJournalFile). */
export const journalFilePathOf = (appId: number, offset: string): string =>
  `/webhooks-journal/files/2026-03/${appId}/${offset}`;

let signingKey: Promise<Buffer> | undefined;

/** A key of its own for the file URLs, derived from the session secret (which the stack already holds). */
function fileSigningKey(): Promise<Buffer> {
  signingKey ??= loadSessionSecret()
    .then((secret) => createHmac('sha256', secret).update('webhooks-journal file urls').digest())
    .catch((error: unknown) => {
      signingKey = undefined;
      throw error;
    });
  return signingKey;
}

const signatureOf = (key: Buffer, appId: number, offset: string, expiresSeconds: number): Buffer =>
  createHmac('sha256', key).update(`${appId}\n${offset}\n${expiresSeconds}`).digest();

/**
 * The seam where an entry's file is handed out: a short-lived URL that needs no Authorization
 * header. It is the service's own file route with an HMAC-SHA256 signature of the app, the offset
 * and the expiry in the query, answered from the entry the stream consumer wrote. Deployed and
 * locally alike; the data stack's journal bucket (three-day lifecycle) is where a pre-signed S3 GET
 * would point once the S3 client is a dependency (docs/webhooks-journal.md).
 */
export async function journalFileUrl(
  baseUrl: string,
  appId: number,
  offset: string,
): Promise<{ url: string; expiresAt: string }> {
  const expiresSeconds = Math.floor(nowMs() / 1000) + journalFileUrlSeconds;
  const signature = signatureOf(await fileSigningKey(), appId, offset, expiresSeconds).toString('base64url');
  const query = new URLSearchParams({ expires: String(expiresSeconds), signature });
  return {
    url: `${baseUrl}${journalFilePathOf(appId, offset)}?${query.toString()}`,
    expiresAt: new Date(expiresSeconds * 1000).toISOString(),
  };
}

/** Refuses (403) a file request whose signature is not the service's for this app, offset and expiry, or whose expiry has passed. */
export async function requireJournalFileSignature(
  appId: number,
  offset: string,
  expires: string | undefined,
  signature: string | undefined,
): Promise<void> {
  const refuse = (message: string, field: string) => new ForbiddenError(message, { context: { field: [field] } });
  const expiresSeconds = expires !== undefined && /^[0-9]{1,12}$/.test(expires) ? Number(expires) : undefined;
  if (expiresSeconds === undefined) throw refuse('The file URL has no valid expiry.', 'query.expires');
  const given =
    signature !== undefined && /^[A-Za-z0-9_-]{43}$/.test(signature) ? Buffer.from(signature, 'base64url') : undefined;
  const expected = signatureOf(await fileSigningKey(), appId, offset, expiresSeconds);
  if (!given || given.length !== expected.length || !timingSafeEqual(given, expected))
    throw refuse('The file URL signature is not valid.', 'query.signature');
  if (expiresSeconds * 1000 <= nowMs()) throw refuse('The file URL has expired.', 'query.expires');
}
