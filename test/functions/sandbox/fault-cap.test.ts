import { maxActiveFaults } from '../../../shared/sandbox/faults';
import { bearer, useTestGateway } from '../../support/harness';
import { useSandboxDeveloper } from '../../support/sandbox-control';

/**
 * The cap on a test account's faults is a condition of the create's own transaction (a count item
 * in the faults' partition), so concurrent creates never pass it; a spent fault's place is taken
 * back by the next create that needs it, and a deleted fault's at once.
 */
const gateway = useTestGateway();
const sandbox = useSandboxDeveloper(gateway);
const { control, newTestAccount } = sandbox;

const fault = (path: string, count = 1) => ({ path, status: 503, count });

describe('the cap on injected faults', () => {
  it(`holds under concurrent creates: of 40 at once, exactly ${maxActiveFaults} are made`, async () => {
    const hubId = await newTestAccount();

    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        control<{ id?: string; category?: string; context?: Record<string, string[]> }>(
          'POST',
          `/test-accounts/${hubId}/faults`,
          fault(`/crm/v3/objects/p${index}`),
        ),
      ),
    );

    const made = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(made).toHaveLength(maxActiveFaults);
    expect(refused).toHaveLength(40 - maxActiveFaults);
    for (const answer of refused)
      expect(answer.body).toMatchObject({
        category: 'VALIDATION_ERROR',
        context: { faults: [String(maxActiveFaults)] },
      });
    const listed = await control<{ results: unknown[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(listed.body.results).toHaveLength(maxActiveFaults);
  });

  it('gives a spent fault its place back on the next create, and a deleted one at once', async () => {
    const hubId = await newTestAccount();
    const tokens = await control<{ access_token: string }>('POST', `/test-accounts/${hubId}/installs`, {
      appId: sandbox.developer.appId,
      scopes: sandbox.developer.scopes,
    });
    expect(tokens.status).toBe(201);
    const ids: string[] = [];
    for (let index = 0; index < maxActiveFaults; index += 1) {
      const created = await control<{ id: string }>(
        'POST',
        `/test-accounts/${hubId}/faults`,
        fault(index === 0 ? '/crm/v3/objects/tickets' : `/crm/v3/objects/p${index}`),
      );
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    expect((await control('POST', `/test-accounts/${hubId}/faults`, fault('/crm/v3/objects/full'))).status).toBe(400);

    // The tickets fault answers one call and is spent: the next create takes its place.
    const faulted = await fetch(`${gateway.baseUrl}/crm/v3/objects/tickets`, {
      headers: bearer(tokens.body.access_token),
    });
    expect(faulted.status).toBe(503);
    expect((await control('POST', `/test-accounts/${hubId}/faults`, fault('/crm/v3/objects/again'))).status).toBe(201);
    expect((await control('POST', `/test-accounts/${hubId}/faults`, fault('/crm/v3/objects/full'))).status).toBe(400);

    expect((await control('DELETE', `/test-accounts/${hubId}/faults/${ids[1]}`)).status).toBe(204);
    expect((await control('DELETE', `/test-accounts/${hubId}/faults/${ids[1]}`)).status).toBe(404);
    expect((await control('POST', `/test-accounts/${hubId}/faults`, fault('/crm/v3/objects/freed'))).status).toBe(201);
    const listed = await control<{ results: { path: string }[] }>('GET', `/test-accounts/${hubId}/faults`);
    expect(listed.body.results).toHaveLength(maxActiveFaults);
    expect(listed.body.results.map((listedFault) => listedFault.path)).toEqual(
      expect.arrayContaining(['/crm/v3/objects/again', '/crm/v3/objects/freed']),
    );
  });
});
