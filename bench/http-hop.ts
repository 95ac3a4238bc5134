import { createServer } from 'node:http';
import { performance } from 'node:perf_hooks';
import { ApiClient } from './http-client';
import { round, summarize, type LatencySummary } from './stats';

/**
 * The loopback HTTP round trip alone: the same client against a server that answers at once.
 * Part of every API figure and of no floor, so it names how much of the gap is the hop itself
 * (which API Gateway replaces when deployed) rather than the function's own work.
 */
export async function measureHttpHop(requests: number): Promise<LatencySummary> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    response.end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const api = new ApiClient(`http://127.0.0.1:${port}`);
  try {
    const samples: number[] = [];
    for (let index = 0; index < requests + 100; index += 1) {
      const began = performance.now();
      await api.expectOk({ method: 'GET', path: '/hop', headers: { authorization: 'Bearer x' } });
      if (index >= 100) samples.push(performance.now() - began);
    }
    const summary = summarize(samples);
    return {
      count: summary.count,
      p50Ms: round(summary.p50Ms),
      p99Ms: round(summary.p99Ms),
      meanMs: round(summary.meanMs),
    };
  } finally {
    api.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
