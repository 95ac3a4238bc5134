import { demoScopes, demoShellVariables, installUrl, seedDemo, type DemoData } from '../../../shared/admin/seed-demo';
import { findOwnerOfUser } from '../../../shared/db/owners';
import { findUserByEmail } from '../../../shared/db/users';
import { shellExports } from '../../../local/local-env';
import { authorizationCodeFor, bearer, jsonOf, postForm, useTestGateway, type TokenJson } from '../../support/harness';

/**
 * The demo `npm start` seeds: beside the company, a contact, a deal in the default pipeline owned
 * by the demo user, and a ticket, each readable with the demo install's token (the scopes the
 * demo app asks for cover them); their ids are in the demo's `export` line (`demo env`).
 */
const gateway = useTestGateway();

interface RecordJson {
  id: string;
  properties: Record<string, string | null>;
  archived: boolean;
}

describe('seedDemo', () => {
  let demo: DemoData;
  let token: string;
  let userId: number;

  beforeAll(async () => {
    demo = await seedDemo(gateway.baseUrl);
    const user = await findUserByEmail(demo.userEmail);
    if (!user) throw new Error('the demo user is missing');
    userId = user.userId;
    const code = await authorizationCodeFor({
      ...demo,
      developerId: demo.developerId ?? 0,
      developerApiKey: demo.developerApiKey ?? '',
      userId,
      password: demo.userPassword,
    });
    const response = await postForm(gateway.baseUrl, '/oauth/v1/token', {
      grant_type: 'authorization_code',
      client_id: demo.clientId,
      client_secret: demo.clientSecret,
      redirect_uri: demo.redirectUri,
      code,
    });
    expect(response.status).toBe(200);
    token = (await jsonOf<TokenJson>(response)).access_token;
  });

  async function read(type: string, id: string | undefined, properties?: string): Promise<RecordJson> {
    const query = properties ? `?properties=${properties}` : '';
    const response = await fetch(`${gateway.baseUrl}/crm/v3/objects/${type}/${id ?? 'missing'}${query}`, {
      headers: bearer(token),
    });
    expect({ type, status: response.status }).toEqual({ type, status: 200 });
    return jsonOf<RecordJson>(response);
  }

  it('asks for the read and write scopes of contacts and deals, tickets, and e-commerce (products, line items), all required', () => {
    expect(demoScopes).toEqual(
      expect.arrayContaining([
        'crm.objects.companies.read',
        'crm.objects.contacts.read',
        'crm.objects.contacts.write',
        'crm.objects.deals.read',
        'crm.objects.deals.write',
        'tickets',
        'e-commerce',
      ]),
    );
    expect(new Set(demoScopes).size).toBe(demoScopes.length);
    expect(demo.scopes).toEqual(demoScopes);
    expect(new URL(installUrl(gateway.baseUrl, demo)).searchParams.get('optional_scope')).toBeNull();
  });

  it("lists the app's own client-credentials scopes, which its install link does not ask for", async () => {
    const token = await postForm(gateway.baseUrl, '/oauth/2026-03/token', {
      grant_type: 'client_credentials',
      client_id: demo.clientId,
      client_secret: demo.clientSecret,
      scope: 'developer.webhooks_journal.read developer.webhooks_journal.snapshots.write',
    });

    expect(token.status).toBe(200);
    expect(new URL(installUrl(gateway.baseUrl, demo)).searchParams.get('scope')).toBe(demoScopes.join(' '));
  });

  it('seeds a company, a contact, a deal and a ticket that the demo install reads', async () => {
    const company = await read('companies', demo.companyId);
    const contact = await read('contacts', demo.contactId);
    const deal = await read('deals', demo.dealId, 'dealname,dealstage,pipeline,amount,hubspot_owner_id');
    const ticket = await read('tickets', demo.ticketId);

    expect(company).toMatchObject({ id: demo.companyId, properties: { name: 'Acme Widgets' }, archived: false });
    expect(contact).toMatchObject({
      id: demo.contactId,
      properties: { email: 'jane.doe@acme-widgets.example', firstname: 'Jane', lastname: 'Doe' },
      archived: false,
    });
    const owner = await findOwnerOfUser(demo.hubId, userId);
    expect(owner).toBeDefined();
    expect(deal).toMatchObject({
      id: demo.dealId,
      properties: {
        dealname: 'Acme Widgets renewal',
        pipeline: 'default',
        dealstage: 'appointmentscheduled',
        amount: '12000',
        hubspot_owner_id: String(owner?.ownerId),
      },
      archived: false,
    });
    expect(ticket).toMatchObject({
      id: demo.ticketId,
      properties: { subject: 'Printer on fire', hs_pipeline: '0', hs_pipeline_stage: '1' },
      archived: false,
    });
    expect(new Set([demo.companyId, demo.contactId, demo.dealId, demo.ticketId]).size).toBe(4);
  });

  it("puts the records' ids in the demo's export line, and leaves out those an older demo.json lacks", () => {
    const exports = shellExports(demoShellVariables(gateway.baseUrl, demo));

    for (const [name, id] of [
      ['COMPANY_ID', demo.companyId],
      ['CONTACT_ID', demo.contactId],
      ['DEAL_ID', demo.dealId],
      ['TICKET_ID', demo.ticketId],
    ]) {
      expect(exports).toContain(` ${name}=${id} `);
    }
    const { contactId, dealId, ticketId, ...older } = demo;
    const olderExports = shellExports(demoShellVariables(gateway.baseUrl, older));
    expect(olderExports).toContain(` COMPANY_ID=${demo.companyId} `);
    expect(olderExports).not.toMatch(/CONTACT_ID|DEAL_ID|TICKET_ID/);
  });
});
