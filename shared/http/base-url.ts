import { config } from '../base/config';
import type { Event } from './middlewares';

/** Hosts only a local runtime (the local gateway, sam local) puts in requestContext.domainName: served over plain HTTP. */
const loopbackHost = /^(127\.0\.0\.1|localhost|\[::1\])(:\d{1,5})?$/;

/**
 * The scheme and host the client used, for absolute links (paging, redirects, Location): the
 * configured public base URL, else the domain API Gateway received the request on (set by the
 * gateway, not by the client). The Host and X-Forwarded-* headers are the client's to choose, so a
 * link built from them could point anywhere.
 */
export function baseUrlOf(requestContext: Event['requestContext'] | undefined): string {
  if (config.publicBaseUrl) return config.publicBaseUrl;
  const host = requestContext?.domainName ?? 'localhost';
  const stage = requestContext?.stage;
  return `${loopbackHost.test(host) ? 'http' : 'https'}://${host}${stage && stage !== '$default' ? `/${stage}` : ''}`;
}
