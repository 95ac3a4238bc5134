import { typedSchema } from '../../shared/http/http-handler';

export const tokenPath = /* @__PURE__ */ typedSchema({
  type: 'object',
  required: ['token'],
  properties: { token: { type: 'string', minLength: 1, maxLength: 1024 } },
} as const);
