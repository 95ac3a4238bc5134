import { createApp } from '../../../shared/admin/provisioning';
import { unique } from '../../support/harness';

const newApp = (scopes: string[], optionalScopes: string[] = []) =>
  createApp({ name: unique('App'), redirectUris: ['https://app.example.com/cb'], scopes, optionalScopes });

describe('createApp', () => {
  it("takes the app's own client-credentials scopes among its scopes", async () => {
    const created = await newApp([
      'oauth',
      'developer.webhooks_journal.read',
      'developer.webhooks_journal.snapshots.write',
    ]);

    expect(created.clientId).toEqual(expect.any(String));
  });

  it("refuses the app's own client-credentials scopes among its optional scopes, naming them", async () => {
    await expect(newApp(['oauth'], ['timeline', 'developer.webhooks_journal.read'])).rejects.toMatchObject({
      status: 400,
      context: { optionalScopes: ['developer.webhooks_journal.read'] },
    });
  });
});
