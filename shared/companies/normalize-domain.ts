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
  host = host.replace(/:\d*$/, '').replace(/\.+$/, '').replace(/^www\./, '');
  if (host === '' || host.length > 253 || !/^[\p{L}\p{N}_-]+(\.[\p{L}\p{N}_-]+)*$/u.test(host)) return undefined;
  return host;
}
