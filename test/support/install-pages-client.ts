import type { Installation } from './harness';

/**
 * Drives the install pages as a browser would, without one: follows an authorize URL through the
 * login and consent forms (keeping the session cookie, posting every hidden field back) and returns
 * the redirect the app receives.
 */
const entities: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function hiddenFieldsOf(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[match[1] ?? ''] = (match[2] ?? '').replace(
      /&(amp|lt|gt|quot|#39);/g,
      (entity) => entities[entity] ?? entity,
    );
  }
  return fields;
}

export async function approveInstall(baseUrl: string, authorizeUrl: string, installation: Installation): Promise<URL> {
  let cookie = '';
  const send = async (url: string, form?: Record<string, string>): Promise<Response> => {
    const response = await fetch(new URL(url, baseUrl), {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { cookie, ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      body: form ? new URLSearchParams(form).toString() : undefined,
    });
    const setCookie = response.headers.get('set-cookie');
    if (setCookie) cookie = setCookie.split(';')[0] ?? '';
    return response;
  };
  const loginPage = await (await send(authorizeUrl)).text();
  const login = await send('/oauth/authorize/login', {
    ...hiddenFieldsOf(loginPage),
    email: installation.userEmail,
    password: installation.password,
  });
  if (login.status !== 303) throw new Error(`login answered ${login.status}`);
  const consentPage = await (await send(login.headers.get('location') ?? '')).text();
  const decision = await send('/oauth/authorize/decision', {
    ...hiddenFieldsOf(consentPage),
    hub_id: String(installation.hubId),
    decision: 'allow',
  });
  const location = decision.headers.get('location');
  if (decision.status !== 302 || !location) throw new Error(`consent answered ${decision.status}`);
  return new URL(location);
}
