import { startTestGateway } from '../support/harness';

describe('local gateway', () => {
  it('answers an over-long request head with the error object, not an empty 431', async () => {
    const gateway = await startTestGateway();

    const response = await fetch(`${gateway.baseUrl}/crm/v3/objects/companies/1?${'a'.repeat(20_000)}=1`);
    const body = (await response.json()) as { status: string; category: string; correlationId: string };
    await gateway.close();

    expect(response.status).toBe(431);
    expect(body).toMatchObject({ status: 'error', category: 'VALIDATION_ERROR', correlationId: expect.any(String) });
  });
});
