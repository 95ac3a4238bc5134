import { parseCookies } from '../../shared/http/cookies';
import { httpHandler } from '../../shared/http/http-handler';
import { renderErrorPage } from '../../shared/oauth/html';
import { htmlPage, redirect } from '../../shared/http/responses';
import { checkAuthorizeRequest, decideConsent, loadConsentContext } from '../../shared/oauth/install-flow';
import { loadSessionSecret } from '../../shared/oauth/key-material';
import { decodeSession, isValidCsrfToken, sessionCookieName } from '../../shared/oauth/session';
import { consentBody } from './install-request.schema';

export const handler = httpHandler('decideConsent', { body: consentBody }, async ({ body, rawCookies }) => {
  const secret = await loadSessionSecret();
  const session = decodeSession(parseCookies(rawCookies)[sessionCookieName], secret);
  if (!session?.userEmail || !isValidCsrfToken(session, body.csrf_token, secret)) {
    return htmlPage(
      403,
      renderErrorPage('Session expired', 'Your session expired or the form is stale. Open the install link again.'),
    );
  }
  const check = await checkAuthorizeRequest(body);
  if (check.outcome === 'show-error')
    return htmlPage(400, renderErrorPage('This install link is not valid', check.message));
  if (check.outcome === 'redirect') return redirect(check.location);
  const consent = await loadConsentContext(session.userEmail);
  if (!consent) return htmlPage(403, renderErrorPage('Session expired', 'Your user no longer exists. Log in again.'));
  const hubId = body.hub_id === undefined ? undefined : Number(body.hub_id);
  return redirect(await decideConsent(check.request, check.app, consent.user, body.decision, hubId));
});
