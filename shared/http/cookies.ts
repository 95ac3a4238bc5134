import { clientKeyedRecord } from '../base/client-keys';

/** The cookies of a request by name (the first of a name wins), from its Cookie headers (HttpRequest.rawCookies). */
export function parseCookies(cookies: readonly string[]): Record<string, string> {
  const jar = clientKeyedRecord<string>();
  for (const cookie of cookies) {
    for (const part of cookie.split(';')) {
      const index = part.indexOf('=');
      if (index <= 0) continue;
      const name = part.slice(0, index).trim();
      if (!(name in jar)) jar[name] = part.slice(index + 1).trim();
    }
  }
  return jar;
}
