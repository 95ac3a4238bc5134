import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  floorPlan,
  precedencePairs,
  prepareFloor,
  recordCommands,
  replayFloor,
  type RecordedCommand,
} from '../../bench/dynamo-recorder';
import { createContacts, installApp } from '../../bench/bench-data';
import { jsonRequest } from '../../bench/http-client';
import { db, tableName } from '../../shared/db/client';
import { useBenchApi } from '../support/bench-api';

/** A command's class and input, as the comparison of a recording and its replay sees it. */
const sent = (commands: readonly RecordedCommand[]) =>
  commands.map((command) => [command.commandClass.name, JSON.stringify(command.input)]);

/** Pairs [i, j] where neither call had settled when the other was sent. */
const overlappingPairs = (commands: readonly RecordedCommand[]): [number, number][] => {
  const ordered = new Set(precedencePairs(commands).map(([i, j]) => `${i},${j}`));
  const pairs: [number, number][] = [];
  commands.forEach((_a, i) => {
    commands.forEach((_b, j) => {
      if (i < j && !ordered.has(`${i},${j}`) && !ordered.has(`${j},${i}`)) pairs.push([i, j]);
    });
  });
  return pairs;
};

const interval = (startMs: number, endMs: number) => ({ startMs, endMs });

describe('the floor plan of recorded calls', () => {
  it('lets calls that overlapped go together and makes a call wait for the ones settled before it was sent', () => {
    // a and b overlap; c and d were both sent after a and b settled, and overlap each other; e came after all.
    const calls = [interval(0, 10), interval(1, 9), interval(10, 20), interval(12, 15), interval(21, 30)];

    expect(floorPlan(calls)).toEqual([[], [], [0, 1], [0, 1], [2, 3]]);
    expect(precedencePairs(calls)).toEqual([
      [0, 2],
      [0, 3],
      [0, 4],
      [1, 2],
      [1, 3],
      [1, 4],
      [2, 4],
      [3, 4],
    ]);
  });

  it('makes a call wait only for what had settled, not for a call still in flight when it was sent', () => {
    // c was sent when b had settled and a had not.
    const calls = [interval(0, 10), interval(1, 3), interval(4, 8)];

    expect(floorPlan(calls)).toEqual([[], [], [1]]);
  });
});

describe('the floor replay', () => {
  const bench = useBenchApi();

  it("sends the recorded calls through the service's own client, those that overlapped together", async () => {
    const pk = `BENCH-FLOOR#${randomUUID()}`;
    const read = (sk: string) => db.send(new GetCommand({ TableName: tableName, Key: { pk, sk } }));
    const { commands } = await recordCommands(async () => {
      await Promise.all([read('a'), read('b')]);
      await read('c');
    });

    // Recorded on the service's client, the replay is seen only if it goes through that client too.
    const { commands: replayed } = await recordCommands(() => replayFloor(prepareFloor(commands)));

    expect(sent(replayed)).toEqual(sent(commands));
    expect([precedencePairs(commands), precedencePairs(replayed)]).toEqual([
      [
        [0, 2],
        [1, 2],
      ],
      [
        [0, 2],
        [1, 2],
      ],
    ]);
  });

  it("replays an API request's calls in their recorded order and overlap (the contacts' sync page)", async () => {
    const client = bench.api;
    const install = await installApp(client);
    await createContacts(client, install.accessToken, 3);
    const { commands } = await recordCommands(() =>
      client.expectOk(
        jsonRequest('POST', '/crm/v3/objects/contacts/search', install.accessToken, {
          filterGroups: [
            { filters: [{ propertyName: 'lastmodifieddate', operator: 'GT', value: '2020-01-01T00:00:00Z' }] },
          ],
          sorts: [{ propertyName: 'lastmodifieddate', direction: 'ASCENDING' }],
          limit: 100,
        }),
      ),
    );
    const floor = prepareFloor(commands);

    const { commands: replayed } = await recordCommands(() => replayFloor(floor));

    expect(sent(replayed)).toEqual(sent(commands));
    // Every order the request imposed, the floor keeps.
    const replayedOrder = new Set(precedencePairs(replayed).map(([i, j]) => `${i},${j}`));
    expect(precedencePairs(commands).filter(([i, j]) => !replayedOrder.has(`${i},${j}`))).toEqual([]);
    // Calls the plan sends together (the same waits) overlap in the replay, and the search has such calls.
    const together = overlappingPairs(commands).filter(
      ([i, j]) => JSON.stringify(floor.waits[i]) === JSON.stringify(floor.waits[j]),
    );
    const replayedOverlap = new Set(overlappingPairs(replayed).map(([i, j]) => `${i},${j}`));
    expect(together.length).toBeGreaterThan(0);
    expect(together.filter(([i, j]) => !replayedOverlap.has(`${i},${j}`))).toEqual([]);
  });

  it('expects a call the service saw fail to fail the same way, and refuses a floor that does other work', async () => {
    const pk = `BENCH-FLOOR#${randomUUID()}`;
    const item = { pk, sk: 'a' };
    await db.send(new PutCommand({ TableName: tableName, Item: item }));
    const put = () =>
      db.send(new PutCommand({ TableName: tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    const { commands } = await recordCommands(() => put().catch(() => undefined));
    const otherPk = `BENCH-FLOOR#${randomUUID()}`;
    const elsewhere = commands.map((command) => ({
      ...command,
      input: { ...command.input, Item: { pk: otherPk, sk: 'a' } },
    }));

    expect(commands.map((command) => command.errorName)).toEqual(['ConditionalCheckFailedException']);
    await expect(replayFloor(prepareFloor(commands))).resolves.toBeUndefined();
    await expect(replayFloor(prepareFloor(elsewhere))).rejects.toThrow(
      "floor: PutCommand succeeded where the service's failed with ConditionalCheckFailedException",
    );
  });
});
