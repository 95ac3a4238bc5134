/** The token endpoint's form fields (v1 and 2026-03). */
export const tokenFields = {
  grant_type: { type: 'string', maxLength: 100 },
  client_id: { type: 'string', maxLength: 200 },
  client_secret: { type: 'string', maxLength: 200 },
  redirect_uri: { type: 'string', maxLength: 2000 },
  code: { type: 'string', maxLength: 200 },
  refresh_token: { type: 'string', maxLength: 200 },
  code_verifier: { type: 'string', maxLength: 200 },
  scope: { type: 'string', maxLength: 4000 },
} as const;

export const tokenBody = { type: 'object', properties: tokenFields } as const;

/** The form of 2026-03 introspect and revoke. */
export const tokenManagementBody = {
  type: 'object',
  properties: {
    token: { type: 'string', maxLength: 1000 },
    token_type_hint: { type: 'string', maxLength: 100 },
    client_id: tokenFields.client_id,
    client_secret: tokenFields.client_secret,
  },
} as const;
