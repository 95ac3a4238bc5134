import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { bearer, install, jsonOf } from '../support/harness';

/**
 * The local gateway serves every request in one process through one DynamoDB client. With a 1 s
 * connection timer running while calls beyond the client's 50 sockets wait in the agent's queue,
 * 250 parallel GETs of one token got 184 503s. The gateway runs in its own process, as
 * `npm start` does, so that it alone sets the pace. Bounded: 250 requests, once.
 */
let child: ChildProcess | undefined;
afterAll(() => {
  child?.disconnect();
});

function startGatewayProcess(): Promise<string> {
  const started = spawn(process.execPath, ['--import', 'tsx', path.resolve(__dirname, '../../bin/soak-gateway.ts')], {
    env: process.env,
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  child = started;
  return new Promise((resolve, reject) => {
    started.once('exit', (code) => reject(new Error(`gateway exited with ${String(code)}`)));
    started.on('message', (message: { type?: string; baseUrl?: string }) => {
      if (message.type === 'ready' && message.baseUrl) resolve(message.baseUrl);
    });
  });
}

describe('local gateway under a burst of one token', () => {
  it('answers 250 parallel GETs of a company (within the rate limit) with 250 x 200', async () => {
    const gateway = { baseUrl: await startGatewayProcess() };
    const installed = await install(gateway, { limits: { tenSecondlyLimit: 300 } });
    const created = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, {
      method: 'POST',
      headers: { ...bearer(installed.accessToken), 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { name: 'Burst target' } }),
    });
    const { id } = await jsonOf<{ id: string }>(created);
    const warm = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies/${id}`, {
      headers: bearer(installed.accessToken),
    });
    await warm.arrayBuffer(); // the handler is loaded before the burst, as on a gateway already in use

    const statuses = await Promise.all(
      Array.from({ length: 250 }, async () => {
        const response = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies/${id}`, {
          headers: bearer(installed.accessToken),
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );

    const tally: Record<string, number> = {};
    for (const status of statuses) tally[status] = (tally[status] ?? 0) + 1;
    expect(tally).toEqual({ 200: 250 });
  }, 90_000);
});
