import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import type { RunningGateway } from '../../../local/local-gateway';
import {
  jsonOf,
  postForm,
  provision,
  startTestGateway,
  type Installation,
  type TokenJson,
} from '../../support/harness';

/** The install flow in a real browser: Debian's Chromium driven by playwright-core. */
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Gitignored: the consent page's screenshot lands here for a person to look at. */
const reportsDir = path.resolve(__dirname, '../../../reports');

let gateway: RunningGateway;
let browser: Browser;

beforeAll(async () => {
  gateway = await startTestGateway();
  browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
});

function installUrl(installation: Installation, state: string): string {
  const params = new URLSearchParams({
    client_id: installation.clientId,
    redirect_uri: installation.redirectUri,
    scope: installation.scopes.join(' '),
    state,
  });
  return `${gateway.baseUrl}/oauth/authorize?${params.toString().replaceAll('+', '%20')}`;
}

async function provisionWithDemoCallback(): Promise<Installation> {
  return provision({ redirectUris: [`${gateway.baseUrl}/oauth/demo-callback`] });
}

describe('install flow in Chromium', () => {
  it('shows the consent page with the app name and each scope in plain words, required and optional apart (screenshot in reports/)', async () => {
    const installation = await provision({
      redirectUris: [`${gateway.baseUrl}/oauth/demo-callback`],
      scopes: ['oauth', 'crm.objects.companies.read', 'crm.objects.companies.write', 'timeline'],
      optionalScopes: ['crm.lists.read'],
    });
    const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const page = await context.newPage();
    const params = new URLSearchParams({
      client_id: installation.clientId,
      redirect_uri: installation.redirectUri,
      scope: installation.scopes.join(' '),
      optional_scope: 'crm.lists.read',
      state: 's',
    });

    await page.goto(`${gateway.baseUrl}/oauth/authorize?${params.toString().replaceAll('+', '%20')}`);
    await page.fill('input[name=email]', installation.userEmail);
    await page.fill('input[name=password]', installation.password);
    await page.click('button[type=submit]');
    await page.waitForSelector('ul.scopes.required');
    mkdirSync(reportsDir, { recursive: true });
    await page.screenshot({ path: path.join(reportsDir, 'consent-page.png'), fullPage: true });

    const appName = (await page.textContent('h1')) ?? '';
    const required = await page.locator('ul.scopes.required li').allTextContents();
    const optional = await page.locator('ul.scopes.optional li').allTextContents();
    expect(appName).toMatch(/^Install App-/);
    expect(required).toHaveLength(4);
    expect(required[1]).toContain('See your companies');
    expect(required[2]).toContain('Create, change, associate and delete your companies');
    expect(required[3]).toContain('timelines');
    expect(optional).toHaveLength(1);
    expect(optional[0]).toContain('See your lists');
    await context.close();
  });

  it('logs in, picks an account, allows, lands on the redirect with code and state, and the code yields tokens and metadata', async () => {
    const installation = await provisionWithDemoCallback();
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(installUrl(installation, 'browser-state-1'));
    await page.fill('input[name=email]', installation.userEmail);
    await page.fill('input[name=password]', installation.password);
    await page.click('button[type=submit]');
    await page.selectOption('select[name=hub_id]', String(installation.hubId));
    await Promise.all([page.waitForURL(/\/oauth\/demo-callback\?/), page.click('button[name=decision][value=allow]')]);

    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('browser-state-1');
    const code = landed.searchParams.get('code') ?? '';
    expect(await page.textContent('#code')).toBe(code);
    const tokenResponse = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: installation.clientId,
      client_secret: installation.clientSecret,
      redirect_uri: installation.redirectUri,
      code,
    });
    expect(tokenResponse.status).toBe(200);
    const tokens = await jsonOf<TokenJson>(tokenResponse);
    const metadata = await fetch(`${gateway.baseUrl}/oauth/v1/access-tokens/${tokens.access_token}`);
    expect(metadata.status).toBe(200);
    expect(await jsonOf<{ hub_id: number; user: string }>(metadata)).toMatchObject({
      hub_id: installation.hubId,
      user: installation.userEmail,
    });
    await context.close();
  });

  it('lands on the redirect with error=access_denied and the state when the user denies', async () => {
    const installation = await provisionWithDemoCallback();
    const context = await browser.newContext();
    const page = await context.newPage();

    await page.goto(installUrl(installation, 'browser-state-2'));
    await page.fill('input[name=email]', installation.userEmail);
    await page.fill('input[name=password]', installation.password);
    await page.click('button[type=submit]');
    await Promise.all([page.waitForURL(/\/oauth\/demo-callback\?/), page.click('button[name=decision][value=deny]')]);

    const landed = new URL(page.url());
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe('browser-state-2');
    expect(landed.searchParams.get('code')).toBeNull();
    await context.close();
  });

  it('shows an error page and stays on the service for an unregistered redirect_uri', async () => {
    const installation = await provisionWithDemoCallback();
    const context = await browser.newContext();
    const page = await context.newPage();

    const response = await page.goto(
      installUrl({ ...installation, redirectUri: 'https://attacker.example/cb' }, 'browser-state-3'),
    );

    expect(response?.status()).toBe(400);
    expect(new URL(page.url()).origin).toBe(gateway.baseUrl);
    expect(await page.textContent('[role=alert]')).toContain('redirect_uri does not match');
    await context.close();
  });
});
