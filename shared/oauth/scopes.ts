/**
 * The scopes this platform knows. Append only: a scope's position is its bit in the
 * access token's scope mask, so reordering would change what issued tokens grant.
 * Appending is safe at any time: live tokens stay valid (see scopeMaskCodec).
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
  // The object engine's types (tickets; the schemas of contacts, deals and tickets), owners, products,
  // line items and custom objects.
  'crm.objects.tickets.read',
  'crm.objects.tickets.write',
  'crm.schemas.contacts.write',
  'crm.schemas.deals.write',
  'crm.schemas.tickets.read',
  'crm.schemas.tickets.write',
  'crm.objects.owners.read',
  'crm.objects.products.read',
  'crm.objects.products.write',
  'crm.objects.line_items.read',
  'crm.objects.line_items.write',
  'crm.objects.custom.read',
  'crm.objects.custom.write',
  'crm.schemas.custom.read',
  'crm.schemas.custom.write',
] as const;

export type Scope = (typeof scopeCatalog)[number];

// Built on first use (here and the codec below): a module-level call would stay in every bundle that imports the file.
let scopeIndex: ReadonlySet<string> | undefined;

export function isKnownScope(scope: string): scope is Scope {
  scopeIndex ??= new Set<string>(scopeCatalog);
  return scopeIndex.has(scope);
}

/** Space-separated (sent as %20 or +), or comma-separated when a gateway joined repeated parameters. */
export function parseScopeList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return [...new Set(raw.split(/[\s,+]+/).filter((scope) => scope !== ''))];
}

/**
 * The scope mask an access token carries: bit i (bit i & 7 of byte i >> 3) grants catalog[i],
 * base64url-encoded. Growing the catalog never invalidates a live token:
 * - the encoder writes ceil(catalog / 8) bytes, so a token minted before a scope was appended has
 *   a mask shorter than the new catalog needs; the missing bits read as 0 (it does not grant the
 *   new scope, which did not exist when it was issued);
 * - a set bit past the end of the verifier's catalog (a token minted by a newer deployment, seen
 *   by an instance of the previous one while a deploy rolls out) is ignored: no route of that
 *   older version can require a scope it does not know, so dropping the grant changes nothing it
 *   serves; the token stays valid for the scopes it does know.
 * A mask that is not canonical base64url, is empty or is longer than maxScopeMaskBytes is refused.
 */
export interface ScopeMaskCodec<S extends string> {
  encode(scopes: readonly string[]): string;
  /** Returns undefined for a mask that no catalog could have produced. */
  decode(mask: string): S[] | undefined;
}

/** Room for 512 scopes; far above any catalog, and it bounds the decode loop. */
export const maxScopeMaskBytes = 64;

export function scopeMaskCodec<S extends string>(catalog: readonly S[]): ScopeMaskCodec<S> {
  const index = new Map<string, number>(catalog.map((scope, position) => [scope, position]));
  const width = Math.ceil(catalog.length / 8);
  return {
    encode(scopes) {
      const bytes = new Uint8Array(width);
      for (const scope of scopes) {
        const bit = index.get(scope);
        if (bit === undefined) throw new Error(`unknown scope ${scope}`);
        bytes[bit >> 3] = (bytes[bit >> 3] ?? 0) | (1 << (bit & 7));
      }
      return Buffer.from(bytes).toString('base64url');
    },
    decode(mask) {
      if (mask.length === 0 || mask.length > Math.ceil((maxScopeMaskBytes * 4) / 3)) return undefined;
      const bytes = Buffer.from(mask, 'base64url');
      if (bytes.toString('base64url') !== mask || bytes.length === 0 || bytes.length > maxScopeMaskBytes)
        return undefined;
      const scopes: S[] = [];
      const known = Math.min(bytes.length * 8, catalog.length);
      for (let bit = 0; bit < known; bit += 1) {
        if (((bytes[bit >> 3] ?? 0) >> (bit & 7)) & 1) scopes.push(catalog[bit] as S);
      }
      return scopes;
    },
  };
}

let catalogCodec: ScopeMaskCodec<Scope> | undefined;
const theCatalogCodec = (): ScopeMaskCodec<Scope> => (catalogCodec ??= scopeMaskCodec(scopeCatalog));

export function encodeScopeMask(scopes: readonly string[]): string {
  return theCatalogCodec().encode(scopes);
}

/** Returns undefined for a mask that no catalog could have produced; bits past this catalog are ignored. */
export function decodeScopeMask(mask: string): Scope[] | undefined {
  return theCatalogCodec().decode(mask);
}
