/**
 * `npm run sam:env-vars`: writes the --env-vars file for `sam local` against the DynamoDB Local
 * of `npm start` (its table, its signing key). sam only overrides variables the template
 * declares, so use it with a template from `npx cdk synth -c samLocal=true`.
 *   --endpoint URL   DynamoDB as the sam container sees it (default http://host.docker.internal:8000)
 *   --data-dir DIR   the state directory of `npm start --data-dir` (default .local)
 *   --out FILE       where to write (default <state dir>/sam-env-vars.json)
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { publicKeysOf } from '../shared/oauth/key-generation';
import { ensureLocalSecrets, localDefaults } from '../local/local-env';

const { values } = parseArgs({
  options: { endpoint: { type: 'string' }, 'data-dir': { type: 'string' }, out: { type: 'string' } },
});
const stateDir = values['data-dir'] ? path.resolve(values['data-dir']) : localDefaults.stateDir;
const secrets = ensureLocalSecrets(path.join(stateDir, 'secrets.json'));
const file = values.out ? path.resolve(values.out) : path.join(stateDir, 'sam-env-vars.json');

// "Parameters" applies to every function; each only receives the variables its template entry declares.
const envVars = {
  Parameters: {
    TABLE_NAME: process.env.TABLE_NAME ?? localDefaults.tableName,
    DYNAMODB_ENDPOINT:
      values.endpoint ?? `http://host.docker.internal:${process.env.DYNAMODB_PORT ?? localDefaults.dynamodbPort}`,
    TOKEN_PUBLIC_KEYS: JSON.stringify(publicKeysOf(secrets)),
    SECRETS_JSON: JSON.stringify(secrets),
    // sam local serves plain http.
    COOKIE_SECURE: 'false',
    // Absolute links (paging, Location) start here; docs/sam-local.md runs `sam local start-api --port 3001`.
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? 'http://127.0.0.1:3001',
  },
};
writeFileSync(file, `${JSON.stringify(envVars, null, 2)}\n`, { mode: 0o600 });
console.log(file);
