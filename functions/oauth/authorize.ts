import { config } from '../../shared/base/config';
import { parseCookies } from '../../shared/http/cookies';
import { httpHandler } from '../../shared/http/http-handler';
import { renderErrorPage } from '../../shared/oauth/html';
import { htmlPage, redirect } from '../../shared/http/responses';
import { checkAuthorizeRequest, loadConsentContext } from '../../shared/oauth/install-flow';
import { loadSessionSecret } from '../../shared/oauth/key-material';
import { renderConsentPage, renderLoginPage, renderNoAccountsPage } from '../../shared/oauth/pages';
import { csrfToken, decodeSession, newSession, sessionCookie, sessionCookieName } from '../../shared/oauth/session';
import { authorizeQuery } from './install-request.schema';

export const handler = httpHandler('authorize', { query: authorizeQuery }, async ({ query, rawCookies }) => {
  const check = await checkAuthorizeRequest(query);
  if (check.outcome === 'show-error')
    return htmlPage(400, renderErrorPage('This install link is not valid', check.message));
  if (check.outcome === 'redirect') return redirect(check.location);
  const secret = await loadSessionSecret();
  const existing = decodeSession(parseCookies(rawCookies)[sessionCookieName], secret);
  const session = existing ?? newSession();
  const setCookie = existing ? undefined : [sessionCookie(session, secret, config.isSecureCookie)];
  const csrf = csrfToken(session, secret);
  const consent = session.userEmail ? await loadConsentContext(session.userEmail) : undefined;
  if (!consent) return htmlPage(200, renderLoginPage(check.request, check.app.name, csrf), setCookie);
  if (consent.accounts.length === 0) return htmlPage(403, renderNoAccountsPage(consent.user.email), setCookie);
  return htmlPage(
    200,
    renderConsentPage(check.request, check.app.name, consent.user.email, consent.accounts, csrf),
    setCookie,
  );
});
