import { nowSeconds } from '../../../shared/base/clock';
import { signAccessToken, verifyAccessToken } from '../../../shared/oauth/access-token';
import { scopeCatalog, type Scope } from '../../../shared/oauth/scopes';
import { bearer, testSigningKey, useTestGateway } from '../../support/harness';

/**
 * Appending scopes to the catalog (the next deployment's catalog) must leave every live access
 * token valid, on the new deployment and, while a deploy rolls out, on instances of the old one.
 * The "other deployment" here is the real access-token module loaded afresh with a longer catalog.
 */
type AccessTokenModule = typeof import('../../../shared/oauth/access-token');
type ScopesModule = typeof import('../../../shared/oauth/scopes');

const scopesPath = '../../../shared/oauth/scopes';
const gateway = useTestGateway();

/** Five more scopes: 25 in all, so the mask grows from 3 to 4 bytes. */
const appended = [
  'crm.objects.invoices.read',
  'crm.objects.invoices.write',
  'crm.objects.quotes.read',
  'crm.objects.quotes.write',
  'crm.objects.carts.read',
];
const grownCatalog = [...scopeCatalog(), ...appended];

function accessTokensKnowing(catalog: readonly string[]): AccessTokenModule {
  let loaded: AccessTokenModule | undefined;
  jest.isolateModules(() => {
    jest.doMock(scopesPath, () => {
      const actual = jest.requireActual<ScopesModule>(scopesPath);
      const codec = actual.scopeMaskCodec(catalog);
      return { ...actual, scopeCatalog: () => catalog, encodeScopeMask: codec.encode, decodeScopeMask: codec.decode };
    });
    loaded = require('../../../shared/oauth/access-token') as AccessTokenModule;
  });
  jest.dontMock(scopesPath);
  if (!loaded) throw new Error('access-token module did not load');
  return loaded;
}

function mint(module: Pick<AccessTokenModule, 'signAccessToken'>, scopes: string[]): string {
  const issuedAtSeconds = nowSeconds();
  return module.signAccessToken(
    {
      kind: 'account',
      appId: 7,
      hubId: 9_100_000 + Math.floor(Math.random() * 100_000),
      userId: 3,
      scopes: scopes as Scope[],
      issuedAtSeconds,
      expiresAtSeconds: issuedAtSeconds + 1800,
      grantId: 'catalog-growth',
    },
    testSigningKey(),
  );
}

describe('access tokens across a growing scope catalog', () => {
  it('verifies a token minted before scopes were appended, with the scopes it was minted with', () => {
    const scopes = ['oauth', 'crm.objects.companies.read', 'crm.lists.write'];
    const token = mint({ signAccessToken }, scopes);

    const result = accessTokensKnowing(grownCatalog).verifyAccessToken(token);

    expect(result).toMatchObject({ outcome: 'valid', claims: { scopes } });
  });

  it('verifies, on the older catalog, a token minted with a new scope: the new scope is ignored', () => {
    const token = mint(accessTokensKnowing(grownCatalog), [
      'crm.objects.companies.read',
      'crm.objects.carts.read',
      'timeline',
    ]);

    const result = verifyAccessToken(token);

    expect(result).toMatchObject({ outcome: 'valid', claims: { scopes: ['crm.objects.companies.read', 'timeline'] } });
  });

  it('serves a newer token on the older deployment for the scopes it knows, and refuses the rest as missing scopes', async () => {
    const newer = accessTokensKnowing(grownCatalog);
    const withKnownScope = mint(newer, ['crm.objects.companies.read', 'crm.objects.quotes.read']);
    const withOnlyNewScopes = mint(newer, ['crm.objects.quotes.read', 'crm.objects.carts.read']);

    const served = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies?limit=1`, {
      headers: bearer(withKnownScope),
    });
    const refused = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies?limit=1`, {
      headers: bearer(withOnlyNewScopes),
    });

    expect(served.status).toBe(200);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ category: 'MISSING_SCOPES' });
  });
});
