import type { RunningGateway } from '../../../local/local-gateway';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import { crmClient, type CrmClient } from '../../support/crm-client';
import {
  install,
  signTestAccessToken,
  startTestGateway,
  unique,
  type ErrorJson,
  type InstalledTokens,
} from '../../support/harness';

interface OwnerJson {
  id: string;
  email: string;
  type: string;
  firstName: string;
  lastName: string;
  userId: number;
  userIdIncludingInactive: number;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
}

interface OwnerPageJson {
  results: OwnerJson[];
  paging?: { next: { after: string; link: string } };
}

let gateway: RunningGateway;
let installed: InstalledTokens;
let api: CrmClient;

beforeAll(async () => {
  gateway = await startTestGateway();
  installed = await install(gateway);
  api = crmClient(gateway, installed.accessToken);
});

afterAll(async () => {
  await gateway.close();
});

describe('GET /crm/v3/owners', () => {
  it("lists the account's users as owners of type PERSON, with numeric ids", async () => {
    const response = await api.get<OwnerPageJson>('/crm/v3/owners');

    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      {
        id: expect.stringMatching(/^[0-9]+$/),
        email: installed.userEmail,
        type: 'PERSON',
        firstName: '',
        lastName: '',
        userId: installed.userId,
        userIdIncludingInactive: installed.userId,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.any(String),
        archived: false,
      },
    ]);
    expect(response.body.paging).toBeUndefined();
  });

  it('gives the names the admin set (user create --first-name --last-name)', async () => {
    const account = await install(gateway);
    const email = `${unique('named')}@example.com`;
    await createUser(email, 'correct horse battery staple', [account.hubId], {
      firstName: ' Ada ',
      lastName: 'Lovelace',
    });

    const response = await crmClient(gateway, account.accessToken).get<OwnerPageJson>(
      `/crm/v3/owners/?email=${encodeURIComponent(email.toUpperCase())}`,
    );

    expect(response.status).toBe(200);
    expect(response.body.results.map((owner) => [owner.email, owner.firstName, owner.lastName])).toEqual([
      [email, 'Ada', 'Lovelace'],
    ]);
  });

  it('makes a user of two accounts a different owner in each, and lists each account its own users only', async () => {
    const first = await install(gateway);
    const second = await install(gateway);
    const email = `${unique('both')}@example.com`;
    const both = await createUser(email, 'correct horse battery staple', [first.hubId, second.hubId]);

    const inFirst = await crmClient(gateway, first.accessToken).get<OwnerPageJson>('/crm/v3/owners');
    const inSecond = await crmClient(gateway, second.accessToken).get<OwnerPageJson>('/crm/v3/owners');

    const shared = [inFirst, inSecond].map((page) => page.body.results.find((owner) => owner.email === email));
    expect(shared.map((owner) => owner?.userId)).toEqual([both.userId, both.userId]);
    expect(shared[0]?.id).not.toBe(shared[1]?.id);
    expect(both.owners.map((owner) => String(owner.ownerId)).sort()).toEqual(shared.map((owner) => owner?.id).sort());
    expect(inFirst.body.results.map((owner) => owner.email).sort()).toEqual([first.userEmail, email].sort());
    expect(inSecond.body.results.map((owner) => owner.email).sort()).toEqual([second.userEmail, email].sort());
  });

  it('pages with limit and after, on the trailing-slash path the SDK sends with a query', async () => {
    const account = await createAccount(`${unique('owners')}.example`);
    for (let index = 0; index < 4; index += 1)
      await createUser(`${unique(`page${index}`)}@example.com`, 'correct horse battery staple', [account.hubId]);
    const reader = crmClient(
      gateway,
      signTestAccessToken({ appId: installed.appId, hubId: account.hubId, scopes: ['crm.objects.owners.read'] }),
    );

    const first = await reader.get<OwnerPageJson>('/crm/v3/owners/?limit=3');
    const second = await reader.get<OwnerPageJson>(`/crm/v3/owners/?limit=3&after=${first.body.paging?.next.after}`);
    const all = await reader.get<OwnerPageJson>('/crm/v3/owners?limit=500');

    expect(first.status).toBe(200);
    expect(first.body.results).toHaveLength(3);
    expect(first.body.paging?.next).toEqual({
      after: first.body.results[2]?.id,
      link: expect.stringContaining(`after=${first.body.results[2]?.id}`),
    });
    expect(second.body.results).toHaveLength(1);
    expect(second.body.paging).toBeUndefined();
    expect([...first.body.results, ...second.body.results]).toEqual(all.body.results);
    expect(all.body.results.map((owner) => Number(owner.id))).toEqual(
      all.body.results.map((owner) => Number(owner.id)).sort((a, b) => a - b),
    );
  });

  it('lists no archived owners (no user has left an account)', async () => {
    const response = await api.get<OwnerPageJson>('/crm/v3/owners/?archived=true');

    expect([response.status, response.body.results]).toEqual([200, []]);
  });

  it('answers 400 VALIDATION_ERROR naming limit above 500 and an after that is no owner id', async () => {
    const tooMany = await api.get<ErrorJson>('/crm/v3/owners/?limit=501');
    const badAfter = await api.get<ErrorJson>('/crm/v3/owners/?after=abc');

    expect([tooMany.status, tooMany.body.category, tooMany.body.context]).toEqual([
      400,
      'VALIDATION_ERROR',
      { field: ['query.limit'] },
    ]);
    expect([badAfter.status, badAfter.body.context]).toEqual([400, { field: ['query.after'] }]);
  });

  it('answers 403 MISSING_SCOPES without crm.objects.owners.read', async () => {
    const response = await crmClient(
      gateway,
      signTestAccessToken({ appId: installed.appId, hubId: installed.hubId, scopes: ['crm.objects.companies.read'] }),
    ).get<ErrorJson>('/crm/v3/owners');

    expect([response.status, response.body.category]).toEqual([403, 'MISSING_SCOPES']);
    expect(response.body.errors?.[0]?.context).toEqual({
      requiredGranularScopes: ['crm.objects.owners.read', 'automation'],
    });
  });
});

describe('GET /crm/v3/owners/{ownerId}', () => {
  it('reads an owner by its id, and by its user id with idProperty=userId', async () => {
    const [owner] = (await api.get<OwnerPageJson>('/crm/v3/owners')).body.results;

    const byId = await api.get<OwnerJson>(`/crm/v3/owners/${owner?.id}`);
    const byUser = await api.get<OwnerJson>(`/crm/v3/owners/${installed.userId}?idProperty=userId`);

    expect([byId.status, byId.body]).toEqual([200, owner]);
    expect([byUser.status, byUser.body]).toEqual([200, owner]);
  });

  it("answers 404 OBJECT_NOT_FOUND for an unknown owner and, alike, for another account's owner", async () => {
    const other = await install(gateway);
    const [theirs] = (await crmClient(gateway, other.accessToken).get<OwnerPageJson>('/crm/v3/owners')).body.results;

    const unknown = await api.get<ErrorJson>('/crm/v3/owners/999999999');
    const foreign = await api.get<ErrorJson>(`/crm/v3/owners/${theirs?.id}`);
    const foreignUser = await api.get<ErrorJson>(`/crm/v3/owners/${other.userId}?idProperty=userId`);

    expect([unknown.status, unknown.body.category, unknown.body.context]).toEqual([
      404,
      'OBJECT_NOT_FOUND',
      { ownerId: ['999999999'] },
    ]);
    expect([foreign.status, foreign.body.message.replace(theirs?.id ?? '', 'X')]).toEqual([
      404,
      unknown.body.message.replace('999999999', 'X'),
    ]);
    expect(foreignUser.status).toBe(404);
  });

  it('answers 400 for an owner id that is not a number, or an unknown idProperty', async () => {
    const notNumber = await api.get<ErrorJson>('/crm/v3/owners/abc');
    const badProperty = await api.get<ErrorJson>('/crm/v3/owners/1?idProperty=email');

    expect([notNumber.status, notNumber.body.context]).toEqual([400, { field: ['path.ownerId'] }]);
    expect([badProperty.status, badProperty.body.context]).toEqual([400, { field: ['query.idProperty'] }]);
  });
});
