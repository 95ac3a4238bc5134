import { companyObjectType } from '../../../shared/objects/object-types';
import { seedDemoTimeline } from '../../../shared/admin/seed-demo';
import { createRecord } from '../../../shared/records/create-record';
import { install, useTestGateway } from '../../support/harness';
import { callTimeline } from '../../support/timeline-client';

const gateway = useTestGateway();

describe('seedDemoTimeline', () => {
  it('seeds a COMPANY type with a String and a Numeric property and one event on a company that both seed reads return', async () => {
    const installed = await install(gateway);

    const company = await createRecord(
      { hubId: installed.hubId, appId: installed.appId, userId: installed.userId },
      companyObjectType,
      { properties: { name: 'Seeded' } },
    );

    const seeded = await seedDemoTimeline(installed.appId, installed.hubId, company.id);
    const base = `/integrations/v1/${installed.appId}/timeline`;
    const type = await callTimeline(
      gateway.baseUrl,
      installed.accessToken,
      'GET',
      `${base}/event-types/${seeded.eventTypeId}`,
    );
    const properties = await callTimeline<{ name: string; propertyType: string }[]>(
      gateway.baseUrl,
      installed.accessToken,
      'GET',
      `${base}/event-types/${seeded.eventTypeId}/properties`,
    );
    const event = await callTimeline(
      gateway.baseUrl,
      installed.accessToken,
      'GET',
      `${base}/event/${seeded.eventTypeId}/${seeded.eventId}`,
    );

    expect(type.status).toBe(200);
    expect(type.body).toMatchObject({ id: seeded.eventTypeId, objectType: 'COMPANY', applicationId: installed.appId });
    expect(properties.body.map(({ name, propertyType }) => [name, propertyType])).toEqual([
      ['webinarName', 'String'],
      ['attendeeCount', 'Numeric'],
    ]);
    expect(event.status).toBe(200);
    expect(event.body).toMatchObject({
      id: seeded.eventId,
      portalId: installed.hubId,
      objectType: 'COMPANY',
      objectId: Number(company.id),
      webinarName: 'Q2 roadmap',
      attendeeCount: '42',
    });
  });
});
