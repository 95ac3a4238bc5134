/**
 * `npm run soak`: clients create, read, list and associate companies for a while against a
 * gateway in its own process, then check invariants and the gateway's heap (bench/soak.ts).
 *   npm run soak -- --duration-seconds 60 --clients 32
 */
import { runSoakCommand } from '../bench/soak';

runSoakCommand().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
