import { requireObjectType } from '../../../shared/objects/object-types';
import { archiveRecord } from '../../../shared/records/archive-record';
import { batchCreateRecords } from '../../../shared/records/batch-records';
import { createRecord } from '../../../shared/records/create-record';
import { findRecordsInStages } from '../../../shared/records/records-in-stages';
import { engineActors } from '../../support/engine-actors';

/**
 * Which stages of a pipeline active records stand in (shared/records/records-in-stages.ts), read
 * from the search projection in DynamoDB Local as the record engine writes it.
 */
const deals = requireObjectType('deals');
const tickets = requireObjectType('tickets');
const contacts = requireObjectType('contacts');

const newActor = engineActors(98_000_000, 1_000_000);
const dealIn = (actor: ReturnType<typeof newActor>, dealstage: string) =>
  createRecord(actor, deals, { properties: { dealname: dealstage, dealstage } }).then((view) => view.id);

describe('findRecordsInStages', () => {
  it('answers the asked stages some record stands in, in the order asked, and those records', async () => {
    const actor = newActor();
    const ids = [
      await dealIn(actor, 'qualifiedtobuy'),
      await dealIn(actor, 'appointmentscheduled'),
      await dealIn(actor, 'appointmentscheduled'),
      await dealIn(actor, 'closedlost'),
    ];

    const used = await findRecordsInStages(deals, actor.hubId, 'default', [
      'appointmentscheduled',
      'closedwon',
      'qualifiedtobuy',
    ]);

    expect(used.stageIds).toEqual(['appointmentscheduled', 'qualifiedtobuy']);
    expect([...used.objectIds].sort()).toEqual(ids.slice(0, 3).sort());
  });

  it('counts only records of the named pipeline, of the type, and not archived', async () => {
    const actor = newActor();
    const archived = await dealIn(actor, 'contractsent');
    await archiveRecord(deals, actor.hubId, archived);
    await createRecord(actor, tickets, { properties: { subject: 'T', hs_pipeline: '0', hs_pipeline_stage: '1' } });

    expect(await findRecordsInStages(deals, actor.hubId, 'default', ['contractsent'])).toEqual({
      stageIds: [],
      objectIds: [],
    });
    expect(await findRecordsInStages(deals, actor.hubId, 'other', ['contractsent'])).toEqual({
      stageIds: [],
      objectIds: [],
    });
    expect((await findRecordsInStages(tickets, actor.hubId, '0', ['1'])).stageIds).toEqual(['1']);
  });

  it('names at most ten of the records', async () => {
    const actor = newActor();
    const created = await batchCreateRecords(actor, deals, {
      inputs: Array.from({ length: 12 }, (_, index) => ({
        properties: { dealname: `d${index}`, dealstage: 'closedwon' },
      })),
    });
    expect(created.results).toHaveLength(12);

    // A stage no record stands in: the read runs to the end.
    const used = await findRecordsInStages(deals, actor.hubId, 'default', ['closedwon', 'closedlost']);

    expect(used.stageIds).toEqual(['closedwon']);
    expect(used.objectIds).toHaveLength(10);
    expect(new Set(used.objectIds).size).toBe(10);
    expect(used.objectIds.every((id) => created.results.some((view) => view.id === id))).toBe(true);
  });

  it('answers nothing for a type without pipelines or no asked stage', async () => {
    const actor = newActor();
    await dealIn(actor, 'closedwon');

    expect(await findRecordsInStages(contacts, actor.hubId, 'default', ['closedwon'])).toEqual({
      stageIds: [],
      objectIds: [],
    });
    expect(await findRecordsInStages(deals, actor.hubId, 'default', [])).toEqual({ stageIds: [], objectIds: [] });
  });
});
