import { escapeHtml, renderLayout } from './html';
import type { Account } from '../db/accounts';
import type { AuthorizeRequest } from './install-flow';
import { describeScope } from './scope-descriptions';

/** The install request travels through the login and consent forms as hidden fields. */
function hiddenRequestFields(request: AuthorizeRequest, csrf: string): string {
  const fields: Record<string, string | undefined> = {
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: request.scopes.join(' '),
    optional_scope: request.optionalScopes.length > 0 ? request.optionalScopes.join(' ') : undefined,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: request.codeChallenge ? 'S256' : undefined,
    csrf_token: csrf,
  };
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
    .join('\n');
}

export function renderLoginPage(
  request: AuthorizeRequest,
  appName: string,
  csrf: string,
  message?: string,
  email = '',
): string {
  return renderLayout(
    'Log in to install',
    `<h1>Log in to install ${escapeHtml(appName)}</h1>
${message ? `<p class="error" role="alert">${escapeHtml(message)}</p>` : ''}
<form method="post" action="/oauth/authorize/login">
${hiddenRequestFields(request, csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Log in</button>
</form>`,
  );
}

function scopeList(scopes: string[], listClass: string): string {
  const items = scopes
    .map((scope) => `<li>${escapeHtml(describeScope(scope))} <code>${escapeHtml(scope)}</code></li>`)
    .join('\n');
  return `<ul class="scopes ${listClass}">\n${items}\n</ul>`;
}

export function renderConsentPage(
  request: AuthorizeRequest,
  appName: string,
  userEmail: string,
  accounts: Account[],
  csrf: string,
): string {
  const options = accounts
    .map((account) => `<option value="${account.hubId}">${escapeHtml(account.domain)} (${account.hubId})</option>`)
    .join('\n');
  const optional =
    request.optionalScopes.length === 0
      ? ''
      : `<h2>It also asks to (optional)</h2>
${scopeList(request.optionalScopes, 'optional')}`;
  return renderLayout(
    `Install ${appName}`,
    `<h1>Install ${escapeHtml(appName)}</h1>
<p>Logged in as <strong>${escapeHtml(userEmail)}</strong>.</p>
<h2><strong>${escapeHtml(appName)}</strong> needs to</h2>
${scopeList(request.scopes, 'required')}
${optional}
<form method="post" action="/oauth/authorize/decision">
${hiddenRequestFields(request, csrf)}
<label for="hub_id">Account</label>
<select id="hub_id" name="hub_id" required>
${options}
</select>
<button type="submit" name="decision" value="allow">Connect app</button>
<button type="submit" name="decision" value="deny" class="secondary">Cancel</button>
</form>`,
  );
}

export function renderNoAccountsPage(userEmail: string): string {
  return renderLayout(
    'No account',
    `<h1>No account to install into</h1>
<p class="error" role="alert">${escapeHtml(userEmail)} has no account. Ask an administrator to add you to one.</p>`,
  );
}

export function renderDemoCallbackPage(
  baseUrl: string,
  query: { code?: string; state?: string; error?: string; error_description?: string },
): string {
  if (query.error) {
    return renderLayout(
      'Install not completed',
      `<h1>Install not completed</h1>
<p class="error" role="alert" id="error">${escapeHtml(query.error)}</p>
<p>${escapeHtml(query.error_description ?? '')}</p>
${query.state ? `<p>state: <code id="state">${escapeHtml(query.state)}</code></p>` : ''}`,
    );
  }
  const code = query.code ?? '';
  const command = `curl -s -X POST ${baseUrl}/oauth/v1/token \\
  -d grant_type=authorization_code \\
  -d client_id=$CLIENT_ID \\
  -d client_secret=$CLIENT_SECRET \\
  --data-urlencode redirect_uri=${baseUrl}/oauth/demo-callback \\
  -d code=${code}`;
  return renderLayout(
    'App installed',
    `<h1>App installed</h1>
<p>Authorization code (single use, valid for 10 minutes):</p>
<p><code id="code">${escapeHtml(code)}</code></p>
${query.state ? `<p>state: <code id="state">${escapeHtml(query.state)}</code></p>` : ''}
<p>Exchange it for tokens (set CLIENT_ID and CLIENT_SECRET to the values <code>npm start</code> printed):</p>
<pre id="command">${escapeHtml(command)}</pre>`,
  );
}
