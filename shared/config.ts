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
} as const;
