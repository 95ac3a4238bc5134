/** The install request fields, shared by the install URL and the hidden fields of its forms. */
export const installRequestProperties = {
  client_id: { type: 'string', maxLength: 200 },
  redirect_uri: { type: 'string', maxLength: 2000 },
  scope: { type: 'string', maxLength: 4000 },
  scopes: { type: 'string', maxLength: 4000 },
  optional_scope: { type: 'string', maxLength: 4000 },
  optional_scopes: { type: 'string', maxLength: 4000 },
  state: { type: 'string', maxLength: 2000 },
  code_challenge: { type: 'string', maxLength: 200 },
  code_challenge_method: { type: 'string', maxLength: 100 },
} as const;

export const authorizeQuery = {
  type: 'object',
  properties: installRequestProperties,
} as const;

export const loginBody = {
  type: 'object',
  required: ['csrf_token', 'email', 'password'],
  properties: {
    ...installRequestProperties,
    csrf_token: { type: 'string', maxLength: 200 },
    email: { type: 'string', maxLength: 320 },
    password: { type: 'string', maxLength: 1000 },
  },
} as const;

export const consentBody = {
  type: 'object',
  required: ['csrf_token', 'decision'],
  properties: {
    ...installRequestProperties,
    csrf_token: { type: 'string', maxLength: 200 },
    hub_id: { type: 'string', pattern: '^[0-9]{1,15}$' },
    decision: { type: 'string', enum: ['allow', 'deny'] },
  },
} as const;
