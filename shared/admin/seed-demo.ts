import { createAccount, createApp, createUser } from './provisioning';

export interface DemoData {
  appId: number;
  clientId: string;
  clientSecret: string;
  redirectUri: string;
  scopes: string[];
  hubId: number;
  hubDomain: string;
  userEmail: string;
  userPassword: string;
}

export const demoScopes = [
  'oauth', 'crm.objects.companies.read', 'crm.objects.companies.write', 'crm.schemas.companies.read',
  'crm.schemas.companies.write', 'timeline',
];

/** The demo app, account and user that `npm start` seeds on first run. */
export async function seedDemo(baseUrl: string): Promise<DemoData> {
  const redirectUri = `${baseUrl}/oauth/demo-callback`;
  const app = await createApp({ name: 'Demo App', redirectUris: [redirectUri], scopes: demoScopes, optionalScopes: ['crm.objects.contacts.read'] });
  const account = await createAccount('demo-company.example');
  const userPassword = 'demo-password';
  const user = await createUser('demo@example.com', userPassword, [account.hubId]);
  return {
    ...app, redirectUri, scopes: demoScopes, hubId: account.hubId, hubDomain: account.domain, userEmail: user.email, userPassword,
  };
}

export function installUrl(baseUrl: string, demo: DemoData, state = 'demo-state'): string {
  const params = new URLSearchParams({ client_id: demo.clientId, redirect_uri: demo.redirectUri, scope: demo.scopes.join(' '), state });
  return `${baseUrl}/oauth/authorize?${params.toString().replaceAll('+', '%20')}`;
}
