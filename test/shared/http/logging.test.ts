import type { RunningGateway } from '../../../local/local-gateway';
import { logger } from '../../../shared/http/logger';
import { install, postForm, startTestGateway } from '../../support/harness';

let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

/** Captures what the logger writes while `work` runs. */
async function captureLogs(work: () => Promise<void>): Promise<string[]> {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(
      ...String(chunk)
        .split('\n')
        .filter((line) => line.trim() !== ''),
    );
    return true;
  });
  const level = logger.getLevelName();
  logger.setLogLevel('DEBUG');
  try {
    await work();
  } finally {
    logger.setLogLevel(level);
    spy.mockRestore();
  }
  return lines;
}

describe('request logs', () => {
  it('write one JSON line per request with its correlation id, and never a token or secret', async () => {
    let secrets: string[] = [];
    let correlationId = '';

    const lines = await captureLogs(async () => {
      const installed = await install(gateway);
      const refresh = await postForm(gateway.baseUrl, '/oauth/v1/token', {
        grant_type: 'refresh_token',
        client_id: installed.clientId,
        client_secret: installed.clientSecret,
        refresh_token: installed.refreshToken,
      });
      correlationId = refresh.headers.get('x-hubspot-correlation-id') ?? '';
      await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${installed.accessToken}`);
      await fetch(`${gateway.baseUrl}/oauth/v1/refresh-tokens/${installed.refreshToken}`, { method: 'DELETE' });
      secrets = [installed.accessToken, installed.refreshToken, installed.clientSecret, installed.password];
    });

    const records = lines.map(
      (line) => JSON.parse(line) as { correlationId?: string; route?: string; statusCode?: number },
    );
    expect(records.find((record) => record.correlationId === correlationId)).toMatchObject({
      route: 'issueToken',
      statusCode: 200,
    });
    expect(records.filter((record) => record.route !== undefined).length).toBeGreaterThanOrEqual(4);
    for (const secret of secrets) expect(lines.join('\n')).not.toContain(secret);
  });

  it('logs the status the client got, not the one of the error behind it', async () => {
    let correlationId = '';

    const lines = await captureLogs(async () => {
      const response = await fetch(`${gateway.baseUrl}/oauth/v1/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status).toBe(400);
      correlationId = response.headers.get('x-hubspot-correlation-id') ?? '';
    });

    const records = lines.map(
      (line) => JSON.parse(line) as { correlationId?: string; route?: string; statusCode?: number },
    );
    expect(records.find((record) => record.correlationId === correlationId)).toMatchObject({
      route: 'issueToken',
      statusCode: 400,
    });
  });
});
