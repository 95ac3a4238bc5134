import { advanceClock } from '../../../shared/base/clock';
import { jsonOf, postForm, provision, useTestGateway, type Installation, type TokenJson } from '../../support/harness';

const gateway = useTestGateway();

/** A browser stand-in: keeps the session cookie and reads the hidden CSRF field. */
class Browser {
  cookie = '';

  remember(response: Response): void {
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) this.cookie = setCookie.split(';')[0] ?? '';
  }

  async get(url: string): Promise<Response> {
    const response = await fetch(url.startsWith('http') ? url : `${gateway.baseUrl}${url}`, {
      headers: { cookie: this.cookie },
      redirect: 'manual',
    });
    this.remember(response);
    return response;
  }

  async post(path: string, fields: Record<string, string>): Promise<Response> {
    const response = await postForm(gateway.baseUrl, path, fields, { cookie: this.cookie });
    this.remember(response);
    return response;
  }
}

function csrfOf(html: string): string {
  const match = /name="csrf_token" value="([^"]+)"/.exec(html);
  if (!match?.[1]) throw new Error('no csrf token in page');
  return match[1];
}

function authorizePath(installation: Installation, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    client_id: installation.clientId,
    redirect_uri: installation.redirectUri,
    scope: installation.scopes.join(' '),
    state: 'st-123',
    ...extra,
  });
  return `/oauth/authorize?${params.toString()}`;
}

function requestFields(installation: Installation): Record<string, string> {
  return {
    client_id: installation.clientId,
    redirect_uri: installation.redirectUri,
    scope: installation.scopes.join(' '),
    state: 'st-123',
  };
}

async function logIn(
  browser: Browser,
  installation: Installation,
  password = installation.password,
): Promise<Response> {
  const page = await (await browser.get(authorizePath(installation))).text();
  return browser.post('/oauth/authorize/login', {
    ...requestFields(installation),
    csrf_token: csrfOf(page),
    email: installation.userEmail,
    password,
  });
}

describe('GET /oauth/authorize', () => {
  it('shows a 400 error page and never redirects for an unknown client', async () => {
    const response = await fetch(
      `${gateway.baseUrl}/oauth/authorize?client_id=unknown&redirect_uri=https%3A%2F%2Fevil.example%2F`,
      { redirect: 'manual' },
    );

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await response.text()).toContain('No app has this client_id');
  });

  it('shows a 400 error page and never redirects for an unregistered redirect_uri', async () => {
    const installation = await provision();

    const response = await fetch(
      `${gateway.baseUrl}${authorizePath({ ...installation, redirectUri: 'https://evil.example/cb' })}`,
      { redirect: 'manual' },
    );

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.text()).toContain('redirect_uri does not match');
  });

  it('redirects with error=invalid_scope and the state for a scope the app did not register', async () => {
    const installation = await provision({ scopes: ['oauth'] });

    const response = await fetch(
      `${gateway.baseUrl}${authorizePath(installation, { scope: 'oauth crm.objects.deals.read' })}`,
      { redirect: 'manual' },
    );

    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(installation.redirectUri);
    expect(location.searchParams.get('error')).toBe('invalid_scope');
    expect(location.searchParams.get('state')).toBe('st-123');
  });

  it.each([['scope'], ['optional_scope']])(
    "redirects with error=invalid_scope for the app's own client-credentials scope in %s, although the app lists it",
    async (parameter) => {
      const installation = await provision({ scopes: ['oauth', 'developer.webhooks_journal.read'] });
      const scopes = parameter === 'scope' ? { scope: 'oauth developer.webhooks_journal.read' } : { scope: 'oauth' };
      const extra = parameter === 'scope' ? scopes : { ...scopes, optional_scope: 'developer.webhooks_journal.read' };

      const response = await fetch(`${gateway.baseUrl}${authorizePath(installation, extra)}`, { redirect: 'manual' });

      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location') ?? '');
      expect(location.searchParams.get('error')).toBe('invalid_scope');
      expect(location.searchParams.get('error_description')).toContain('developer.webhooks_journal.read');
      expect(location.searchParams.get('state')).toBe('st-123');
    },
  );

  it("asks, for a link without a scope, for the app's scopes an install can grant and not its own", async () => {
    const installation = await provision({
      scopes: ['oauth', 'developer.webhooks_journal.read', 'crm.objects.companies.read'],
    });
    const params = new URLSearchParams({ client_id: installation.clientId, redirect_uri: installation.redirectUri });

    const page = await (await fetch(`${gateway.baseUrl}/oauth/authorize?${params.toString()}`)).text();

    expect(/name="scope" value="([^"]*)"/.exec(page)?.[1]).toBe('oauth crm.objects.companies.read');
  });

  it('shows a login form with a signed HttpOnly SameSite=Lax session cookie and no framing', async () => {
    const installation = await provision();

    const response = await fetch(`${gateway.baseUrl}${authorizePath(installation)}`);

    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('name="email"');
    expect(html).toContain('name="password"');
    expect(html).toContain('type="submit"');
    expect(response.headers.get('set-cookie')).toMatch(
      /^hs_install_session=[^;]+\.[^;]+; Path=\/oauth; HttpOnly; SameSite=Lax/,
    );
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('accepts scope encoded with plus signs and the plural parameter names', async () => {
    const installation = await provision({ optionalScopes: ['crm.objects.contacts.read'] });
    const query = `client_id=${installation.clientId}&redirect_uri=${encodeURIComponent(installation.redirectUri)}&scopes=${installation.scopes.join('+')}&optional_scopes=crm.objects.contacts.read`;

    const response = await fetch(`${gateway.baseUrl}/oauth/authorize?${query}`);

    expect(response.status).toBe(200);
  });
});

describe('POST /oauth/authorize/login', () => {
  it('shows the form again with a message for a wrong password', async () => {
    const installation = await provision();

    const response = await logIn(new Browser(), installation, 'wrong password');

    expect(response.status).toBe(401);
    expect(await response.text()).toContain('Wrong email or password.');
  });

  it('slows down repeated failures by locking the login for a growing time', async () => {
    const installation = await provision();
    const browser = new Browser();
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 4; attempt += 1)
      statuses.push((await logIn(browser, installation, 'wrong password')).status);

    const whileLocked = await logIn(browser, installation);
    advanceClock(5_000);
    const afterLock = await logIn(browser, installation);

    expect(statuses).toEqual([401, 401, 429, 429]);
    expect(whileLocked.status).toBe(429);
    expect(await whileLocked.text()).toMatch(/Too many failed attempts\. Try again in \d+ second/);
    expect(afterLock.status).toBe(303);
  });

  it('rejects a form without the session cookie or with a wrong CSRF token', async () => {
    const installation = await provision();
    const browser = new Browser();
    await browser.get(authorizePath(installation));

    const wrongToken = await browser.post('/oauth/authorize/login', {
      ...requestFields(installation),
      csrf_token: 'forged',
      email: installation.userEmail,
      password: installation.password,
    });
    const noCookie = await postForm(gateway.baseUrl, '/oauth/authorize/login', {
      ...requestFields(installation),
      csrf_token: 'x',
      email: installation.userEmail,
      password: installation.password,
    });

    expect(wrongToken.status).toBe(403);
    expect(noCookie.status).toBe(403);
  });

  it('redirects back to the consent page with a new session after a good password', async () => {
    const installation = await provision();
    const browser = new Browser();
    await browser.get(authorizePath(installation));
    const before = browser.cookie;

    const response = await logIn(browser, installation);

    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toMatch(/^\/oauth\/authorize\?client_id=/);
    expect(browser.cookie).not.toBe(before);
  });
});

describe('POST /oauth/authorize/decision', () => {
  async function consentPage(browser: Browser, installation: Installation): Promise<string> {
    const login = await logIn(browser, installation);
    return (await browser.get(login.headers.get('location') ?? '')).text();
  }

  it('shows the app, every scope and the user accounts on the consent page', async () => {
    const installation = await provision();
    const html = await consentPage(new Browser(), installation);

    for (const scope of installation.scopes) expect(html).toContain(scope);
    expect(html).toContain(`<option value="${installation.hubId}">`);
    expect(html).toContain('name="decision" value="allow"');
    expect(html).toContain('name="decision" value="deny"');
  });

  it('redirects with a code and the state on allow, and the code exchanges for tokens', async () => {
    const installation = await provision();
    const browser = new Browser();
    const html = await consentPage(browser, installation);

    const response = await browser.post('/oauth/authorize/decision', {
      ...requestFields(installation),
      csrf_token: csrfOf(html),
      hub_id: String(installation.hubId),
      decision: 'allow',
    });

    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('state')).toBe('st-123');
    const token = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: installation.clientId,
      client_secret: installation.clientSecret,
      redirect_uri: installation.redirectUri,
      code: location.searchParams.get('code') ?? '',
    });
    expect(token.status).toBe(200);
    expect((await jsonOf<TokenJson>(token)).hub_id).toBe(installation.hubId);
  });

  it('redirects with error=access_denied and the state on deny', async () => {
    const installation = await provision();
    const browser = new Browser();
    const html = await consentPage(browser, installation);

    const response = await browser.post('/oauth/authorize/decision', {
      ...requestFields(installation),
      csrf_token: csrfOf(html),
      hub_id: String(installation.hubId),
      decision: 'deny',
    });

    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st-123');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('refuses an account the user does not belong to', async () => {
    const installation = await provision();
    const other = await provision();
    const browser = new Browser();
    const html = await consentPage(browser, installation);

    const response = await browser.post('/oauth/authorize/decision', {
      ...requestFields(installation),
      csrf_token: csrfOf(html),
      hub_id: String(other.hubId),
      decision: 'allow',
    });

    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('refuses a decision without a logged-in session', async () => {
    const installation = await provision();
    const browser = new Browser();
    const html = await (await browser.get(authorizePath(installation))).text();

    const response = await browser.post('/oauth/authorize/decision', {
      ...requestFields(installation),
      csrf_token: csrfOf(html),
      hub_id: String(installation.hubId),
      decision: 'allow',
    });

    expect(response.status).toBe(403);
  });
});
