/**
 * The gateway under soak, in its own Node process so that its heap is measured apart from the
 * load generator's. Started by bin/soak.ts with --expose-gc and the environment of shared/base/config.ts;
 * answers 'sample' messages with its heap after a full collection, and exits when its parent does.
 */
import { startGateway } from '../local/local-gateway';

interface MemorySample {
  type: 'memory';
  heapUsed: number;
  rss: number;
}

async function main(): Promise<void> {
  const gateway = await startGateway(0);
  const collect = (globalThis as { gc?: () => void }).gc;
  process.on('message', (message: unknown) => {
    if (message !== 'sample') return;
    collect?.();
    const usage = process.memoryUsage();
    const sample: MemorySample = { type: 'memory', heapUsed: usage.heapUsed, rss: usage.rss };
    process.send?.(sample);
  });
  process.on('disconnect', () => {
    void gateway.close().then(() => process.exit(0));
  });
  process.send?.({ type: 'ready', baseUrl: gateway.baseUrl, canCollect: collect !== undefined });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
