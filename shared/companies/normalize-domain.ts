/**
 * The domain as the uniqueness key sees it: lower case, without scheme, credentials, port,
 * path, query, leading "www." or trailing dot. Returns undefined for something that cannot be a
 * host name.
 */
export function normalizeDomain(raw: string): string | undefined {
  let host = raw.trim().toLowerCase();
  host = host.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/^\/\//, '');
  host = host.split(/[/?#]/, 1)[0] ?? '';
  host = host.slice(host.lastIndexOf('@') + 1);
  // Room for a 253-character name, a port and a few trailing dots; anything longer is no host,
  // and the cap bounds the work below whatever a 64 KiB value holds.
  if (host.length > maxHostInputLength) return undefined;
  host = withoutTrailingDots(host.replace(/:\d*$/, '')).replace(/^www\./, '');
  hostPattern ??= /^[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*$/u;
  if (host === '' || host.length > 253 || !hostPattern.test(host)) return undefined;
  return host;
}

const maxHostInputLength = 300;
/**
 * Labels are separated by exactly one dot, so the pattern matches each character one way only.
 * Made on first use: creating a pattern of Unicode classes takes 0.1 ms, which a cold start would pay.
 */
let hostPattern: RegExp | undefined;

/**
 * Not `/\.+$/`: unanchored at the start, it retries from every dot of a run and costs time
 * quadratic in the run's length ("a" and 60,000 dots and "-" take 3.5 s).
 */
function withoutTrailingDots(host: string): string {
  let end = host.length;
  while (end > 0 && host.charCodeAt(end - 1) === 0x2e) end -= 1;
  return host.slice(0, end);
}
