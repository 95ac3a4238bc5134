import { mergeCompanies } from '../../shared/companies/merge-companies';
import { httpHandler } from '../../shared/http/http-handler';
import { ok } from '../../shared/http/responses';
import { mergeCompaniesBody } from './merge.schema';

export const handler = httpHandler('mergeCompanies', { body: mergeCompaniesBody }, async ({ body, auth }) =>
  ok(await mergeCompanies(auth, body)),
);
