import type { RunningGateway } from '../../../local/local-gateway';
import { startLocalWebhooks, type LocalWebhooks } from '../../../local/local-webhooks';
import { createAccount, createUser } from '../../../shared/admin/provisioning';
import { advanceClock, resetClock } from '../../../shared/base/clock';
import { findInstallState } from '../../../shared/db/install-states';
import { isAppInstalled } from '../../../shared/db/oauth-grants';
import { findInstalledApps } from '../../../shared/db/webhooks';
import type { WebhookEvent } from '../../../shared/webhooks/webhook-events';
import { crmClient, type CompanyJson } from '../../support/crm-client';
import {
  authorizationCodeFor,
  bearer,
  install,
  jsonOf,
  postForm,
  provision,
  startTestGateway,
  type InstalledTokens,
  type Installation,
  type TokenJson,
} from '../../support/harness';
import { callTimeline } from '../../support/timeline-client';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/**
 * DELETE /appinstalls/v3/external-install and /appinstalls/2026-03/external-install: the bearer
 * token's install ends. Over HTTP on the local gateway (one process, so the instance that ends the
 * install is the one that checks the next call); the per-instance cache that lets other instances
 * take up to a minute is tested in test/shared/oauth/install-status.test.ts.
 */
let gateway: RunningGateway;

beforeAll(async () => {
  gateway = await startTestGateway();
});

afterAll(async () => {
  await gateway.close();
});

afterEach(() => {
  resetClock();
});

const uninstall = (base: string, accessToken: string) =>
  fetch(`${gateway.baseUrl}${base}/external-install`, { method: 'DELETE', headers: bearer(accessToken) });
const listCompanies = (accessToken: string) =>
  fetch(`${gateway.baseUrl}/crm/v3/objects/companies`, { headers: bearer(accessToken) });
const refresh = (installed: InstalledTokens, refreshToken = installed.refreshToken) =>
  postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'refresh_token',
    client_id: installed.clientId,
    client_secret: installed.clientSecret,
    refresh_token: refreshToken,
  });
const introspect = async (installed: Installation, token: string) =>
  jsonOf<Record<string, unknown>>(
    await postForm(gateway.baseUrl, '/oauth/2026-03/token/introspect', {
      token,
      client_id: installed.clientId,
      client_secret: installed.clientSecret,
    }),
  );

/** Installs the app again through the consent step and the token endpoint. */
async function installAgain(installation: Installation): Promise<TokenJson> {
  const code = await authorizationCodeFor(installation);
  const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
    grant_type: 'authorization_code',
    client_id: installation.clientId,
    client_secret: installation.clientSecret,
    redirect_uri: installation.redirectUri,
    code,
  });
  expect(response.status).toBe(200);
  return jsonOf<TokenJson>(response);
}

describe.each(['/appinstalls/v3', '/appinstalls/2026-03'])('DELETE %s/external-install', (base) => {
  it('answers 204 without a body and ends the install: its tokens stop, the install record goes, the state says ended', async () => {
    const installed = await install(gateway);
    const refreshed = await jsonOf<TokenJson>(await refresh(installed));
    expect((await listCompanies(installed.accessToken)).status).toBe(200);

    const response = await uninstall(base, installed.accessToken);

    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    // Every access token of the install, the one that called and one refreshed before.
    for (const token of [installed.accessToken, refreshed.access_token]) {
      const call = await listCompanies(token);
      expect(call.status).toBe(401);
      expect(await jsonOf(call)).toMatchObject({
        category: 'INVALID_AUTHENTICATION',
        message: expect.stringContaining('uninstalled'),
      });
    }
    const refreshAfter = await refresh(installed);
    expect(refreshAfter.status).toBe(400);
    expect(await jsonOf(refreshAfter)).toMatchObject({ status: 'BAD_REFRESH_TOKEN', error: 'invalid_grant' });
    expect(await isAppInstalled(installed.hubId, installed.appId)).toBe(false);
    expect((await findInstalledApps(installed.hubId)).map((install) => install.appId)).not.toContain(installed.appId);
    expect(await findInstallState(installed.hubId, installed.appId)).toEqual({
      hubId: installed.hubId,
      appId: installed.appId,
      generation: '',
      endedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
  });

  it("makes the install's tokens unknown to introspection and token metadata", async () => {
    const installed = await install(gateway);

    expect((await uninstall(base, installed.accessToken)).status).toBe(204);

    expect(await introspect(installed, installed.accessToken)).toEqual({ active: false });
    expect(await introspect(installed, installed.refreshToken)).toEqual({ active: false });
    const accessInfo = await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${installed.accessToken}`);
    expect(accessInfo.status).toBe(404);
    expect(await jsonOf(accessInfo)).toMatchObject({
      category: 'OBJECT_NOT_FOUND',
      message: 'The access token is invalid.',
    });
    expect((await fetch(`${gateway.baseUrl}/oauth/v1/refresh-tokens/${installed.refreshToken}`)).status).toBe(404);
  });

  it('answers 401 to a second call with a token of the ended install', async () => {
    const installed = await install(gateway);
    expect((await uninstall(base, installed.accessToken)).status).toBe(204);

    const again = await uninstall(base, installed.accessToken);

    expect(again.status).toBe(401);
    expect(await jsonOf(again)).toMatchObject({
      status: 'error',
      category: 'INVALID_AUTHENTICATION',
      correlationId: expect.any(String),
    });
  });

  it('answers 403 MISSING_SCOPES to a token without the oauth scope, and ends nothing', async () => {
    const installed = await install(gateway, { scopes: ['crm.objects.companies.read'] });

    const response = await uninstall(base, installed.accessToken);

    expect(response.status).toBe(403);
    expect(await jsonOf(response)).toMatchObject({ category: 'MISSING_SCOPES' });
    expect((await listCompanies(installed.accessToken)).status).toBe(200);
    expect(await isAppInstalled(installed.hubId, installed.appId)).toBe(true);
  });

  it("leaves the app's install in another account and another app's install in the same account alone", async () => {
    const installed = await install(gateway);
    const account = await createAccount(`uninstall-b-${Date.now()}.example`, {
      tenSecondlyLimit: 0,
      searchPerSecondLimit: 0,
    });
    const user = await createUser(`uninstall-b-${Date.now()}@example.com`, installed.password, [
      account.hubId,
      installed.hubId,
    ]);
    const elsewhere = await installAgain({
      ...installed,
      hubId: account.hubId,
      userId: user.userId,
      userEmail: user.email,
    });
    const otherApp = await provision();
    const neighbor = await installAgain({
      ...otherApp,
      hubId: installed.hubId,
      userId: user.userId,
      userEmail: user.email,
    });

    expect((await uninstall(base, installed.accessToken)).status).toBe(204);

    expect((await listCompanies(elsewhere.access_token)).status).toBe(200);
    expect((await listCompanies(neighbor.access_token)).status).toBe(200);
    expect((await refresh(installed, elsewhere.refresh_token)).status).toBe(200);
    expect((await findInstalledApps(installed.hubId)).map((install) => install.appId)).toEqual([otherApp.appId]);
  });

  it('lets the app be installed again through consent, with new tokens that work while the old ones stay dead', async () => {
    const installed = await install(gateway);
    expect((await uninstall(base, installed.accessToken)).status).toBe(204);

    const again = await installAgain(installed);

    expect((await listCompanies(again.access_token)).status).toBe(200);
    expect(await introspect(installed, again.access_token)).toMatchObject({ active: true, hub_id: installed.hubId });
    const refreshed = await refresh(installed, again.refresh_token);
    expect(refreshed.status).toBe(200);
    expect((await listCompanies((await jsonOf<TokenJson>(refreshed)).access_token)).status).toBe(200);
    expect(await isAppInstalled(installed.hubId, installed.appId)).toBe(true);
    // The ended install's tokens do not come back with the new install.
    expect((await listCompanies(installed.accessToken)).status).toBe(401);
    expect((await refresh(installed)).status).toBe(400);
    expect(await introspect(installed, installed.accessToken)).toEqual({ active: false });
    const state = await findInstallState(installed.hubId, installed.appId);
    expect(state).toEqual({
      hubId: installed.hubId,
      appId: installed.appId,
      generation: expect.stringMatching(/^[A-Za-z0-9_-]{11}$/),
    });
    // And the new install can be ended in turn.
    expect((await uninstall(base, again.access_token)).status).toBe(204);
    expect((await listCompanies(again.access_token)).status).toBe(401);
  });

  it('does not let a code issued before the uninstall install the app again', async () => {
    const installed = await install(gateway);
    const earlierCode = await authorizationCodeFor(installed);
    advanceClock(1);
    expect((await uninstall(base, installed.accessToken)).status).toBe(204);

    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: installed.clientId,
      client_secret: installed.clientSecret,
      redirect_uri: installed.redirectUri,
      code: earlierCode,
    });

    expect(response.status).toBe(400);
    expect(await jsonOf(response)).toMatchObject({ status: 'BAD_AUTH_CODE', error: 'invalid_grant' });
    expect(await isAppInstalled(installed.hubId, installed.appId)).toBe(false);
  });
});

describe('webhooks after an uninstall', () => {
  let webhooks: LocalWebhooks;
  let receiver: WebhookReceiver;
  const hubs = new Set<number>();

  beforeAll(async () => {
    webhooks = await startLocalWebhooks({
      endpoint: process.env.DYNAMODB_ENDPOINT ?? '',
      tableName: process.env.TABLE_NAME ?? '',
      delayScale: 0.01,
      pollIntervalMs: 50,
      acceptsHub: (hubId) => hubs.has(hubId),
      startAtTip: true,
    });
    receiver = await startWebhookReceiver();
  });

  afterAll(async () => {
    await webhooks.stop();
    await receiver.close();
  });

  const createCompany = async (accessToken: string, name: string) => {
    const response = await crmClient(gateway, accessToken).post<CompanyJson>('/crm/v3/objects/companies', {
      properties: { name },
    });
    expect(response.status).toBe(201);
    return Number(response.body.id);
  };
  const creationOf = (portalId: number, objectId: number) => (event: WebhookEvent) =>
    event.subscriptionType === 'company.creation' && event.portalId === portalId && event.objectId === objectId;

  it("stops the app's events for that account, while its install in another account still gets them", async () => {
    const app = await install(gateway);
    hubs.add(app.hubId);
    const manage = (method: string, path: string, body: unknown) =>
      callTimeline(gateway.baseUrl, { hapikey: app.developerApiKey }, method, `/webhooks/v3/${app.appId}${path}`, body);
    expect(
      (await manage('PUT', '/settings', { targetUrl: receiver.url, throttling: { maxConcurrentRequests: 10 } })).status,
    ).toBe(200);
    expect((await manage('POST', '/subscriptions', { eventType: 'company.creation', active: true })).status).toBe(201);
    const account = await createAccount(`webhook-uninstall-${Date.now()}.example`, {
      tenSecondlyLimit: 0,
      searchPerSecondLimit: 0,
    });
    const user = await createUser(`webhook-uninstall-${Date.now()}@example.com`, app.password, [
      account.hubId,
      app.hubId,
    ]);
    hubs.add(account.hubId);
    const elsewhere = await installAgain({ ...app, hubId: account.hubId, userId: user.userId, userEmail: user.email });
    // Another app in the same account keeps writing there after the uninstall.
    const neighbor = await installAgain({
      ...(await provision()),
      hubId: app.hubId,
      userId: user.userId,
      userEmail: user.email,
    });
    const before = await createCompany(app.accessToken, 'Before the uninstall');
    await receiver.waitFor(() => receiver.events().some(creationOf(app.hubId, before)));

    expect((await uninstall('/appinstalls/2026-03', app.accessToken)).status).toBe(204);
    const after = await createCompany(neighbor.access_token, 'After the uninstall');
    const control = await createCompany(elsewhere.access_token, 'In the other account');

    await receiver.waitFor(() => receiver.events().some(creationOf(account.hubId, control)));
    await webhooks.settle(100);
    expect(receiver.events().filter(creationOf(app.hubId, after))).toEqual([]);
  });
});
