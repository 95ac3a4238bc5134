import { randomInt } from 'node:crypto';
import { AppError } from '../../../shared/base/errors';
import { dynamoCallCounter } from '../../../shared/db/client';
import { insertUserWithOwners } from '../../../shared/db/owners';
import { requireObjectType } from '../../../shared/objects/object-types';
import { checkAccountValues, newAccountLookups, referencedValues } from '../../../shared/records/account-values';
import { archiveRecord } from '../../../shared/records/archive-record';
import { createRecord } from '../../../shared/records/create-record';
import { unique } from '../../support/harness';

/**
 * The checks of a write's values against the account's own data (shared/records/account-values.ts),
 * against DynamoDB Local: owners, pipelines and stages, and the record a reference property names.
 */
const deals = requireObjectType('deals');
const contacts = requireObjectType('contacts');
const products = requireObjectType('products');
const lineItems = requireObjectType('line_items');

let hubSeed = 96_000_000 + Math.floor(Math.random() * 1_000_000);
const newHubId = () => {
  hubSeed += 1;
  return hubSeed;
};

/** An owner of the account, written as provisioning writes one (with its user). */
async function addOwner(hubId: number): Promise<number> {
  const userId = randomInt(1_000_000, 2_000_000_000);
  const ownerId = randomInt(1_000_000, 2_000_000_000);
  const email = `${unique('owner')}@example.com`;
  const now = new Date().toISOString();
  const outcome = await insertUserWithOwners(
    { userId, email, passwordHash: 'scrypt$unused', hubIds: [hubId], createdAt: now },
    [
      {
        hubId,
        owner: {
          ownerId,
          userId,
          email,
          firstName: 'Ada',
          lastName: 'Owner',
          createdAt: now,
          updatedAt: now,
          archived: false,
        },
      },
    ],
  );
  expect(outcome).toBe('created');
  return ownerId;
}

/** What a check refuses, as the invalid values its error names. */
async function refusal(check: Promise<void>): Promise<{ in?: string; code?: string; message: string }[]> {
  const error = await check.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected a refusal, got ${String(error)}`);
  expect(error.status).toBe(400);
  return (error.errors ?? []).map((detail) => ({ in: detail.in, code: detail.code, message: detail.message }));
}

const deal = { dealname: 'A', pipeline: 'default', dealstage: 'appointmentscheduled' };

describe('checkAccountValues: owners', () => {
  it('passes an owner of the account and refuses any other id, or one that is no integer', async () => {
    const hubId = newHubId();
    const ownerId = await addOwner(hubId);
    const otherHubsOwner = await addOwner(newHubId());

    await expect(
      checkAccountValues(contacts, hubId, { hubspot_owner_id: String(ownerId) }, ['hubspot_owner_id']),
    ).resolves.toBeUndefined();
    expect(
      await refusal(
        checkAccountValues(contacts, hubId, { hubspot_owner_id: String(otherHubsOwner) }, ['hubspot_owner_id']),
      ),
    ).toEqual([
      { in: 'hubspot_owner_id', code: 'INVALID_OWNER_ID', message: `"${otherHubsOwner}" was not a valid owner ID` },
    ]);
    expect(
      await refusal(checkAccountValues(contacts, hubId, { hubspot_owner_id: 'abc' }, ['hubspot_owner_id'])),
    ).toEqual([{ in: 'hubspot_owner_id', code: 'INVALID_OWNER_ID', message: '"abc" was not a valid owner ID' }]);
  });

  it('reads each owner once for all the checks that share the lookups', async () => {
    const hubId = newHubId();
    const ownerId = await addOwner(hubId);
    const lookups = newAccountLookups();
    dynamoCallCounter.reset();

    for (let index = 0; index < 5; index += 1)
      await checkAccountValues(contacts, hubId, { hubspot_owner_id: String(ownerId) }, ['hubspot_owner_id'], lookups);

    expect(dynamoCallCounter.totalApartFromRetries()).toBe(1);
  });
});

describe('checkAccountValues: pipelines', () => {
  it('passes a record in a stage of a live pipeline', async () => {
    await expect(checkAccountValues(deals, newHubId(), deal, ['pipeline', 'dealstage'])).resolves.toBeUndefined();
  });

  it('refuses a pipeline the account does not have, naming the valid ones', async () => {
    expect(await refusal(checkAccountValues(deals, newHubId(), { ...deal, pipeline: 'nope' }, ['pipeline']))).toEqual([
      {
        in: 'pipeline',
        code: 'INVALID_OPTION',
        message: '"nope" is not a valid pipeline ID. Valid options are: [default]',
      },
    ]);
  });

  it("refuses a stage the pipeline does not have, naming the pipeline's stages", async () => {
    expect(await refusal(checkAccountValues(deals, newHubId(), { ...deal, dealstage: 'won' }, ['dealstage']))).toEqual([
      {
        in: 'dealstage',
        code: 'INVALID_OPTION',
        message:
          '"won" is not a valid pipeline stage ID. Valid options are: pipelineId=default : [appointmentscheduled, qualifiedtobuy, presentationscheduled, decisionmakerboughtin, contractsent, closedwon, closedlost]',
      },
    ]);
  });

  it('reports a bad owner and a bad stage in one error', async () => {
    const hubId = newHubId();

    expect(
      (
        await refusal(
          checkAccountValues(deals, hubId, { ...deal, dealstage: 'won', hubspot_owner_id: '12' }, [
            'dealstage',
            'hubspot_owner_id',
          ]),
        )
      ).map((invalid) => invalid.in),
    ).toEqual(['hubspot_owner_id', 'dealstage']);
  });

  it('reads nothing, and checks nothing, when the write changes none of the checked properties', async () => {
    const hubId = newHubId();
    dynamoCallCounter.reset();

    await checkAccountValues(deals, hubId, { ...deal, pipeline: 'nope', hubspot_owner_id: '12' }, ['dealname']);

    expect(dynamoCallCounter.totalApartFromRetries()).toBe(0);
  });
});

describe('referencedValues and the record a reference names', () => {
  const actorOf = (hubId: number) => ({ hubId, appId: 7, userId: 3 });

  it("copies the referenced record's values that the write does not send itself", async () => {
    const hubId = newHubId();
    const product = await createRecord(actorOf(hubId), products, {
      properties: { name: 'Widget', price: '9.5', hs_sku: 'W-1' },
    });

    const copied = await referencedValues(
      lineItems,
      hubId,
      { hs_product_id: product.id, name: 'My own name' },
      newAccountLookups(),
    );

    expect(copied).toEqual({ price: '9.5', hs_sku: 'W-1' });
  });

  it('copies nothing when the reference is unset or names no record, and the check refuses the latter', async () => {
    const hubId = newHubId();
    const lookups = newAccountLookups();

    expect(await referencedValues(lineItems, hubId, { name: 'x' }, lookups)).toEqual({});
    expect(await referencedValues(lineItems, hubId, { hs_product_id: '999' }, lookups)).toEqual({});
    expect(
      await refusal(checkAccountValues(lineItems, hubId, { hs_product_id: '999' }, ['hs_product_id'], lookups)),
    ).toEqual([
      { in: 'hs_product_id', code: 'INVALID_OBJECT_ID', message: '"999" is not the id of an existing product' },
    ]);
  });

  it('treats an archived record as missing, and reads each referenced record once per lookups', async () => {
    const hubId = newHubId();
    const product = await createRecord(actorOf(hubId), products, { properties: { name: 'Gone', price: '1' } });
    await archiveRecord(products, hubId, product.id);
    const lookups = newAccountLookups();
    dynamoCallCounter.reset();

    expect(await referencedValues(lineItems, hubId, { hs_product_id: product.id }, lookups)).toEqual({});
    expect(
      await refusal(checkAccountValues(lineItems, hubId, { hs_product_id: product.id }, ['hs_product_id'], lookups)),
    ).toHaveLength(1);
    expect(dynamoCallCounter.totalApartFromRetries()).toBe(1);
  });
});
