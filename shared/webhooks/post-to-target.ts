import { lookup as dnsLookup } from 'node:dns/promises';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isAllowedTargetAddress, literalAddressOf } from './target-address';

/** HubSpot retries when the target takes longer than this. */
export const deliveryTimeoutMs = 5000;

export interface TargetAnswer {
  statusCode?: number;
  error?: string;
  latencyMs: number;
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Every address a hostname resolves to (the system resolver, as a connection would use it). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export type PostToTarget = (url: string, body: string, headers: Record<string, string>) => Promise<TargetAnswer>;

const systemResolver: ResolveHost = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * The connection's own DNS lookup: it resolves the host, refuses when any address is not public
 * (loopback too unless allowed), and hands only those checked addresses to the socket, so the
 * address connected to is the address checked: a name that rebinds between check and connect
 * cannot slip through. Node does not call it for IP-literal hosts; those are checked before the request.
 */
function checkingLookup(resolve: ResolveHost, allowsLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname)
      .then((addresses) => {
        // Any address not public refuses the host, even one of another family than the socket wants.
        const refused = addresses.find((found) => !isAllowedTargetAddress(found.address, allowsLoopback));
        if (refused) throw new Error(`target resolves to a non-public address ${refused.address}`);
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const wanted = family === 4 || family === 6 ? addresses.filter((found) => found.family === family) : addresses;
        const [first] = wanted;
        if (!first)
          throw Object.assign(
            new Error(`target ${hostname} has no ${family === 6 ? 'IPv6' : family === 4 ? 'IPv4' : 'IP'} address`),
            { code: 'ENOTFOUND' },
          );
        // Node asks for every address when it tries several (happy eyeballs), for one otherwise.
        if (options.all) (callback as unknown as (error: null, found: ResolvedAddress[]) => void)(null, [...wanted]);
        else callback(null, first.address, first.family);
      })
      .catch((error: NodeJS.ErrnoException) => callback(error, '', 0));
  };
}

export interface TargetPosterOptions {
  /** Local runtime only (`npm start`, the tests): loopback addresses may be targets; other non-public ones never. */
  allowsLoopback: boolean;
  /** The system resolver unless given: the tests name hosts that resolve where they choose. */
  resolve?: ResolveHost;
  /** deliveryTimeoutMs unless given (the tests wait less). */
  timeoutMs?: number;
}

/**
 * POSTs a webhook batch to its target: https (or http where registration allowed it), kept-alive
 * connections, 5 s for the lookup, the connection and the answer together, redirects not followed
 * (a 3xx is a failed attempt). The answer's body is read and dropped so the connection can be reused.
 * A target whose address is not public is refused before any byte is sent.
 */
export function createTargetPoster(options: TargetPosterOptions): PostToTarget {
  const lookup = checkingLookup(options.resolve ?? systemResolver, options.allowsLoopback);
  const timeoutMs = options.timeoutMs ?? deliveryTimeoutMs;
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };
  return (url, body, headers) =>
    new Promise<TargetAnswer>((settle) => {
      const started = performance.now();
      let statusCode: number | undefined;
      let timer: NodeJS.Timeout | undefined;
      const finish = (error?: string) => {
        clearTimeout(timer);
        const latencyMs = Math.round(performance.now() - started);
        // Once the status is in, a later failure (the body cut off) does not change the attempt's outcome.
        settle(
          statusCode !== undefined
            ? { statusCode, latencyMs }
            : { error: (error ?? 'no answer').slice(0, 300), latencyMs },
        );
      };
      try {
        const target = new URL(url);
        const literal = literalAddressOf(target.hostname);
        if (literal !== undefined && !isAllowedTargetAddress(literal, options.allowsLoopback)) {
          finish(`target is a non-public address ${literal}`);
          return;
        }
        const isHttps = target.protocol === 'https:';
        const request = (isHttps ? httpsRequest : httpRequest)(
          target,
          {
            method: 'POST',
            agent: isHttps ? agents.https : agents.http,
            lookup,
            headers: {
              'content-type': 'application/json',
              'content-length': String(Buffer.byteLength(body)),
              'user-agent': 'HubSpot-style platform slice webhooks',
              ...headers,
            },
          },
          (response: IncomingMessage) => {
            statusCode = response.statusCode;
            response.on('end', () => finish());
            response.on('close', () => finish());
            response.resume();
          },
        );
        timer = setTimeout(() => request.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        request.on('error', (error) => finish(error.message));
        request.end(body);
      } catch (error) {
        // A URL or header Node will not send (never one registration accepted) is a failed attempt, not a crash.
        finish(error instanceof Error ? error.message : String(error));
      }
    });
}
