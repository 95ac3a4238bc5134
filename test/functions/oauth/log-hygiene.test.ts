import type { RunningGateway } from '../../../bin/local-gateway';
import { logger } from '../../../shared/http/logger';
import { authorizationCodeFor, install, postForm, provision, startTestGateway } from '../../support/harness';

/**
 * Every log line the OAuth routes write, at the most verbose level, over flows that handle every
 * kind of credential: each line is JSON with the request's correlation id, and none holds a
 * token, code, client secret or password.
 */
let gateway: RunningGateway;
let lines: string[];
let credentials: string[];

beforeAll(async () => {
  gateway = await startTestGateway();
  const captured: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const levelBefore = logger.getLevelName();
  logger.setLogLevel('DEBUG');
  process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
    captured.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return write(chunk, ...(rest as []));
  }) as typeof process.stdout.write;
  try {
    const installed = await install(gateway);
    const other = await provision();
    const code = await authorizationCodeFor(other);
    const exchange = { grant_type: 'authorization_code', client_id: other.clientId, client_secret: other.clientSecret, redirect_uri: other.redirectUri, code };
    await postForm(gateway.baseUrl, '/oauth/v1/token', exchange);
    await postForm(gateway.baseUrl, '/oauth/v1/token', exchange); // replayed: fails and revokes
    await postForm(gateway.baseUrl, '/oauth/v1/token', { grant_type: 'refresh_token', client_id: installed.clientId, client_secret: installed.clientSecret, refresh_token: installed.refreshToken });
    await postForm(gateway.baseUrl, '/oauth/v1/token', { grant_type: 'refresh_token', client_id: installed.clientId, client_secret: `${installed.clientSecret}x`, refresh_token: installed.refreshToken });
    await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${installed.accessToken}`);
    await fetch(`${gateway.baseUrl}/oauth/v1/refresh-tokens/${installed.refreshToken}`);
    await fetch(`${gateway.baseUrl}/oauth/v1/refresh-tokens/${installed.refreshToken}`, { method: 'DELETE' });
    await fetch(`${gateway.baseUrl}/oauth/v1/refresh-tokens/${installed.refreshToken}`, { method: 'DELETE' });
    await postForm(gateway.baseUrl, '/oauth/authorize/login', { email: installed.userEmail, password: installed.password, csrf: 'forged' });
    credentials = [installed.accessToken, installed.refreshToken, installed.clientSecret, installed.password, other.clientSecret, code];
  } finally {
    process.stdout.write = write;
    logger.setLogLevel(levelBefore);
  }
  lines = captured.join('').split('\n').filter((line) => line.trim() !== '');
});

afterAll(async () => {
  await gateway.close();
});

describe('logs of the OAuth routes', () => {
  it('writes a log line for every request', () => {
    expect(lines.length).toBeGreaterThanOrEqual(10);
  });

  it('writes only JSON lines that carry the correlation id', () => {
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ correlationId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    }
  });

  it('never writes a token, code, client secret or password', () => {
    const log = lines.join('\n');

    for (const credential of credentials) expect(log.includes(credential)).toBe(false);
  });
});
