/**
 * Every environment variable the functions use, read once at cold start.
 * Nothing else reads process.env (bin/ entry points set it before importing).
 */
function required(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new Error(`missing required environment variable ${name}`);
  }
  return value;
}

function optional(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

function parsePublicKeys(raw: string | undefined): Record<string, string> {
  if (raw === undefined) return {};
  const parsed: unknown = JSON.parse(raw);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error('TOKEN_PUBLIC_KEYS must be a JSON object of key id to base64 SPKI public key');
  }
  const keys: Record<string, string> = {};
  for (const [kid, key] of Object.entries(parsed)) {
    if (typeof key !== 'string') throw new Error(`TOKEN_PUBLIC_KEYS.${kid} must be a string`);
    keys[kid] = key;
  }
  return keys;
}

/** A whole number of milliseconds of at least `min` (`fallback` when unset), or a cold-start error. */
function parseMilliseconds(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${name} must be a whole number of milliseconds, at least ${min}; got "${raw}"`);
  return value;
}

/** An absolute http(s) URL without a trailing slash, or a cold-start error. */
function parseBaseUrl(name: string, raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute URL, got "${raw}"`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.search !== '' || url.hash !== '') {
    throw new Error(`${name} must be an http(s) URL without query or fragment, got "${raw}"`);
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

export const config = {
  tableName: required('TABLE_NAME'),
  /** Set locally and in tests; unset when deployed (the SDK then uses the regional endpoint). */
  dynamodbEndpoint: optional('DYNAMODB_ENDPOINT'),
  region: optional('AWS_REGION') ?? 'us-east-1',
  /** Key id to base64 DER (SPKI) Ed25519 public key; every function that verifies tokens gets these. */
  tokenPublicKeys: parsePublicKeys(optional('TOKEN_PUBLIC_KEYS')),
  /** Only the token-issuing and page functions get one of these two: a local JSON file, or a Secrets Manager ARN. */
  secretsFile: optional('SECRETS_FILE'),
  /** The same document inline, for `sam local`, whose containers cannot see a file of the host. */
  secretsJson: optional('SECRETS_JSON'),
  signingKeySecretArn: optional('SIGNING_KEY_SECRET_ARN'),
  sessionSecretArn: optional('SESSION_SECRET_ARN'),
  /** Deployed behind HTTPS: cookies get the Secure flag. */
  isSecureCookie: optional('COOKIE_SECURE') === 'true',
  logLevel: optional('LOG_LEVEL') ?? 'INFO',
  /**
   * Where clients reach the API (scheme, host, stage path), for absolute links such as
   * paging.next.link and Location. The stack sets it from the API's own (or custom) domain, `npm
   * start` from its address. Without it the API Gateway requestContext.domainName is used, which
   * the client cannot forge; never the Host or X-Forwarded-* headers, which it can.
   */
  publicBaseUrl: parseBaseUrl('PUBLIC_BASE_URL', optional('PUBLIC_BASE_URL')),
  /** Only the local runtime and the tests set it: webhook targets may then also be http on a loopback host. */
  allowsLoopbackHttpWebhooks: optional('WEBHOOKS_ALLOW_LOOPBACK_HTTP') === 'true',
  /**
   * The test-account controls exist (always locally and in the tests; deployed with the CDK context
   * `sandboxControls`): only then does the webhook generator look for test accounts among a batch's
   * hubs (one BatchGet per stream batch), whose batches it tracks for the flush.
   */
  sandboxControls: optional('SANDBOX_CONTROLS') === 'true',
  /** Deployed: the SQS queue of jobs (a dynamic list's evaluation; shared/jobs/job-queue.ts). Unset locally: jobs run in process. */
  jobQueueUrl: optional('JOB_QUEUE_URL'),
  /**
   * How long after one evaluation of a DYNAMIC list whose filters compare with the current time the
   * next one runs (shared/lists/list-evaluation.ts), in ms: 15 minutes unless LIST_REFRESH_INTERVAL_MS
   * says otherwise (at least 1,000; SQS delays a message at most 15 minutes, so more is 15 minutes deployed).
   */
  listRefreshMs: parseMilliseconds('LIST_REFRESH_INTERVAL_MS', optional('LIST_REFRESH_INTERVAL_MS'), 900_000, 1000),
  /** Deployed: the SQS queue between webhook event generation and delivery (unset locally: an in-process queue). */
  webhookQueueUrl: optional('WEBHOOK_QUEUE_URL'),
  /** Deployed: where batches go after their last attempt (the delivery function sends them; the admin CLI replays them). */
  webhookDeadLetterQueueUrl: optional('WEBHOOK_DEAD_LETTER_QUEUE_URL'),
  /** Deployed: the secret that seals client secrets for webhook signatures (locally the secrets file holds the key). */
  webhookSealKeySecretArn: optional('WEBHOOK_SEAL_KEY_SECRET_ARN'),
} as const;
