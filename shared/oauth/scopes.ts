import { standardScopeBits } from '#standard-scope-bits';

/**
 * The scopes of no one standard type, and the bit each takes in an access token's scope mask; each
 * standard type's module states its own scopes' bits (`scopeBits`, shared/objects/types/). A bit is
 * never reused or moved: issued tokens carry it. A new scope takes the next free bit.
 */
export const platformScopeBits = {
  oauth: 0,
  timeline: 5,
  // HubSpot's older scope for tickets, beside their granular scopes (shared/objects/types/tickets.ts).
  tickets: 12,
  content: 13,
  forms: 14,
  files: 15,
  automation: 16,
  'e-commerce': 17,
  'crm.lists.read': 18,
  'crm.lists.write': 19,
  'crm.objects.owners.read': 26,
  'crm.objects.custom.read': 31,
  'crm.objects.custom.write': 32,
  'crm.schemas.custom.read': 33,
  'crm.schemas.custom.write': 34,
  // The webhooks journal's scopes: granted to the app itself by the client-credentials grant, never by an install.
  'developer.webhooks_journal.read': 35,
  'developer.webhooks_journal.subscriptions.read': 36,
  'developer.webhooks_journal.subscriptions.write': 37,
  'developer.webhooks_journal.snapshots.read': 38,
  'developer.webhooks_journal.snapshots.write': 39,
} as const;

/**
 * The scopes of the app itself rather than of an account: only the client-credentials grant gives
 * them (to an app that lists them among its scopes), and an install (the consent pages, the sandbox
 * controls) refuses them as invalid_scope.
 */
export const clientCredentialsScopes = [
  'developer.webhooks_journal.read',
  'developer.webhooks_journal.subscriptions.read',
  'developer.webhooks_journal.subscriptions.write',
  'developer.webhooks_journal.snapshots.read',
  'developer.webhooks_journal.snapshots.write',
] as const satisfies readonly (keyof typeof platformScopeBits)[];

export type ClientCredentialsScope = (typeof clientCredentialsScopes)[number];

export function isClientCredentialsScope(scope: string): scope is ClientCredentialsScope {
  return (clientCredentialsScopes as readonly string[]).includes(scope);
}

/** A standard type's own scope: its records' (`crm.objects.<name>.read`) or its schemas' (`crm.schemas.<name>.write`). */
export type TypeScope = `crm.${'objects' | 'schemas'}.${string}.${'read' | 'write'}`;

export type Scope = keyof typeof platformScopeBits | TypeScope;

/** The scopes by bit: the platform's and each type module's (scopeBitProblems says whether any bit is left free or claimed twice). */
export function scopeCatalogOf(bitTables: readonly Readonly<Record<string, number>>[]): Scope[] {
  const catalog: Scope[] = [];
  for (const table of bitTables) for (const [scope, bit] of Object.entries(table)) catalog[bit] = scope as Scope;
  return catalog;
}

/** The bits no scope takes below the highest, and the bits or scopes stated twice: none in a catalog tokens can carry. */
export function scopeBitProblems(bitTables: readonly Readonly<Record<string, number>>[]): string[] {
  const entries = bitTables.flatMap((table) => Object.entries(table));
  const bits = entries.map(([, bit]) => bit);
  const problems = entries
    .filter(
      ([scope, bit], index) => bits.indexOf(bit) !== index || entries.findIndex(([other]) => other === scope) !== index,
    )
    .map(([scope, bit]) => `${scope} (bit ${bit}) is stated twice`);
  for (let bit = 0; bit < Math.max(-1, ...bits); bit += 1)
    if (!bits.includes(bit)) problems.push(`no scope takes bit ${bit}`);
  return problems;
}

let theCatalog: readonly Scope[] | undefined;

/** The scopes this platform knows, in the order of their bits (built on first use). */
export function scopeCatalog(): readonly Scope[] {
  theCatalog ??= scopeCatalogOf([platformScopeBits, ...standardScopeBits]);
  return theCatalog;
}

let scopeIndex: ReadonlySet<string> | undefined;

export function isKnownScope(scope: string): scope is Scope {
  scopeIndex ??= new Set<string>(scopeCatalog());
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
const theCatalogCodec = (): ScopeMaskCodec<Scope> => (catalogCodec ??= scopeMaskCodec(scopeCatalog()));

export function encodeScopeMask(scopes: readonly string[]): string {
  return theCatalogCodec().encode(scopes);
}

/** Returns undefined for a mask that no catalog could have produced; bits past this catalog are ignored. */
export function decodeScopeMask(mask: string): Scope[] | undefined {
  return theCatalogCodec().decode(mask);
}
