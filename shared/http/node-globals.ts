/**
 * What every bundle gets for `node:stream/web` and `node:timers` (lib/bundling.ts aliases both
 * imports here). Only middy imports them: `ReadableStream` for an `instanceof` check of streamed
 * responses, `setTimeout` for its early timeout. Node's globals are the same class and function
 * (the web streams are already loaded by Node's fetch), but importing the modules themselves loaded
 * five more of Node's internal modules at every cold start (web transform streams, encoding,
 * adapters, compression streams, and timers/promises, which an ES import of node:timers loads):
 * about 1.3 ms of a 95 ms import.
 */
export const ReadableStream = globalThis.ReadableStream;
export const setTimeout = globalThis.setTimeout;
export const clearTimeout = globalThis.clearTimeout;
