import { config } from '../../shared/base/config';
import { parseCookies } from '../../shared/http/cookies';
import { httpHandler } from '../../shared/http/http-handler';
import { renderErrorPage } from '../../shared/oauth/html';
import { htmlPage, redirect } from '../../shared/http/responses';
import { checkAuthorizeRequest, logIn } from '../../shared/oauth/install-flow';
import { loadSessionSecret } from '../../shared/oauth/key-material';
import { renderLoginPage } from '../../shared/oauth/pages';
import {
  csrfToken,
  decodeSession,
  isValidCsrfToken,
  newSession,
  sessionCookie,
  sessionCookieName,
} from '../../shared/oauth/session';
import { loginBody } from './install-request.schema';

export const handler = httpHandler('login', { body: loginBody }, async ({ body, rawCookies }) => {
  const secret = await loadSessionSecret();
  const session = decodeSession(parseCookies(rawCookies)[sessionCookieName], secret);
  if (!session || !isValidCsrfToken(session, body.csrf_token, secret)) {
    return htmlPage(
      403,
      renderErrorPage('Session expired', 'Your session expired or the form is stale. Open the install link again.'),
    );
  }
  const check = await checkAuthorizeRequest(body);
  if (check.outcome === 'show-error')
    return htmlPage(400, renderErrorPage('This install link is not valid', check.message));
  if (check.outcome === 'redirect') return redirect(check.location, undefined, 303);
  const result = await logIn(body.email, body.password);
  const csrf = csrfToken(session, secret);
  if (result.outcome === 'locked') {
    return htmlPage(
      429,
      renderLoginPage(
        check.request,
        check.app.name,
        csrf,
        `Too many failed attempts. Try again in ${result.retryAfterSeconds} second(s).`,
        body.email,
      ),
    );
  }
  if (result.outcome === 'bad-credentials') {
    return htmlPage(401, renderLoginPage(check.request, check.app.name, csrf, 'Wrong email or password.', body.email));
  }
  // A fresh session id on login, so a session fixed before login is worthless after it.
  const loggedIn = newSession(result.user.email);
  const params = new URLSearchParams();
  for (const name of [
    'client_id',
    'redirect_uri',
    'scope',
    'optional_scope',
    'state',
    'code_challenge',
    'code_challenge_method',
  ] as const) {
    const value = body[name];
    if (value !== undefined) params.set(name, value);
  }
  return redirect(
    `/oauth/authorize?${params.toString()}`,
    [sessionCookie(loggedIn, secret, config.isSecureCookie)],
    303,
  );
});
