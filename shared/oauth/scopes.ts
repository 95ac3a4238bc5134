/**
 * The scopes this platform knows. Append only: a scope's position is its bit in the
 * access token's scope mask, so reordering would change what issued tokens grant.
 */
export const scopeCatalog = [
  'oauth',
  'crm.objects.companies.read',
  'crm.objects.companies.write',
  'crm.schemas.companies.read',
  'crm.schemas.companies.write',
  'timeline',
  'crm.objects.contacts.read',
  'crm.objects.contacts.write',
  'crm.objects.deals.read',
  'crm.objects.deals.write',
  'crm.schemas.contacts.read',
  'crm.schemas.deals.read',
  'tickets',
  'content',
  'forms',
  'files',
  'automation',
  'e-commerce',
  'crm.lists.read',
  'crm.lists.write',
] as const;

export type Scope = (typeof scopeCatalog)[number];

const scopeIndex = new Map<string, number>(scopeCatalog.map((scope, index) => [scope, index]));

export function isKnownScope(scope: string): scope is Scope {
  return scopeIndex.has(scope);
}

/** Space-separated (sent as %20 or +), or comma-separated when a gateway joined repeated parameters. */
export function parseScopeList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return [...new Set(raw.split(/[\s,+]+/).filter((scope) => scope !== ''))];
}

export function encodeScopeMask(scopes: readonly string[]): string {
  const bytes = new Uint8Array(Math.ceil(scopeCatalog.length / 8));
  for (const scope of scopes) {
    const index = scopeIndex.get(scope);
    if (index === undefined) throw new Error(`unknown scope ${scope}`);
    bytes[index >> 3] = (bytes[index >> 3] ?? 0) | (1 << (index & 7));
  }
  return Buffer.from(bytes).toString('base64url');
}

/** Returns undefined for a mask that is not one this catalog could have produced. */
export function decodeScopeMask(mask: string): Scope[] | undefined {
  const bytes = Buffer.from(mask, 'base64url');
  if (bytes.toString('base64url') !== mask || bytes.length !== Math.ceil(scopeCatalog.length / 8)) return undefined;
  const scopes: Scope[] = [];
  for (let bit = 0; bit < bytes.length * 8; bit += 1) {
    if (((bytes[bit >> 3] ?? 0) >> (bit & 7)) & 1) {
      const scope = scopeCatalog[bit];
      if (scope === undefined) return undefined;
      scopes.push(scope);
    }
  }
  return scopes;
}
