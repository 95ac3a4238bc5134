import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryBatch, DeliveryQueue } from '../../../shared/webhooks/delivery-queue';

/**
 * The deployed delivery queue (SQS), against a stand-in that answers SQS's JSON protocol on
 * 127.0.0.1: the client is loaded on first send (delivery-queue.ts imports sqs-client.ts then), a
 * batch is one message whose body is the batch, a delay past SQS's 15 minutes waits in hops (its
 * due time in the message), entries SQS did not take are sent again, and a dead letter goes to the
 * dead-letter queue.
 */
interface Received {
  target: string;
  body: {
    QueueUrl: string;
    Entries?: { Id: string; MessageBody: string; DelaySeconds: number }[];
    MessageBody?: string;
  };
}

let server: Server;
let baseUrl: string;
const received: Received[] = [];
/** Entry ids the stand-in refuses in its next SendMessageBatch answer. */
let refuseNext: string[] = [];

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

beforeAll(async () => {
  server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const body = JSON.parse(text) as Received['body'];
      received.push({ target, body });
      response.setHeader('content-type', 'application/x-amz-json-1.0');
      if (target === 'AmazonSQS.SendMessageBatch') {
        const refused = refuseNext;
        refuseNext = [];
        const entries = body.Entries ?? [];
        response.end(
          JSON.stringify({
            Successful: entries
              .filter((entry) => !refused.includes(entry.Id))
              .map((entry) => ({ Id: entry.Id, MessageId: `m-${entry.Id}`, MD5OfMessageBody: md5(entry.MessageBody) })),
            Failed: refused.map((id) => ({ Id: id, SenderFault: false, Code: 'InternalError', Message: 'try again' })),
          }),
        );
      } else if (target === 'AmazonSQS.SendMessage') {
        response.end(JSON.stringify({ MessageId: 'dead', MD5OfMessageBody: md5(body.MessageBody ?? '') }));
      } else {
        response.statusCode = 400;
        response.end(JSON.stringify({ __type: 'InvalidAction', message: target }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

// The client reads these when it first sends, as a deployed function's reads its role's credentials:
// the stand-in's address is the SDK's own setting for another SQS endpoint (else it warns that the
// queue's host differs from AWS's).
const clientVariables = ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY', 'AWS_ENDPOINT_URL_SQS'] as const;
const savedVariables = clientVariables.map((name) => process.env[name]);
beforeAll(() => {
  process.env.AWS_ACCESS_KEY_ID = 'test';
  process.env.AWS_SECRET_ACCESS_KEY = 'test';
  process.env.AWS_ENDPOINT_URL_SQS = baseUrl;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  clientVariables.forEach((name, index) => {
    const value = savedVariables[index];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  });
});

beforeEach(() => {
  received.length = 0;
});

/** The queue a deployed function builds from its environment (a fresh module registry, so nothing installed an in-process queue). */
function sqsQueue(): DeliveryQueue {
  const saved = { ...process.env };
  Object.assign(process.env, {
    WEBHOOK_QUEUE_URL: `${baseUrl}/000000000000/webhooks`,
    WEBHOOK_DEAD_LETTER_QUEUE_URL: `${baseUrl}/000000000000/webhooks-dead`,
  });
  try {
    let queue: DeliveryQueue | undefined;
    jest.isolateModules(() => {
      queue = (
        require('../../../shared/webhooks/delivery-queue') as typeof import('../../../shared/webhooks/delivery-queue')
      ).deliveryQueue();
    });
    return queue as DeliveryQueue;
  } finally {
    process.env = saved;
  }
}

const batch = (appId: number): DeliveryBatch => ({
  appId,
  portalId: 7,
  attemptNumber: 0,
  events: [
    {
      eventId: appId,
      subscriptionId: 1,
      portalId: 7,
      appId,
      occurredAt: 1,
      subscriptionType: 'contact.creation',
      attemptNumber: 0,
      objectId: 5,
      changeFlag: 'CREATED',
      changeSource: 'CRM',
    } as unknown as DeliveryBatch['events'][number],
  ],
});

describe('the SQS delivery queue', () => {
  it('sends each batch as one message, ten to a request, with its delay', async () => {
    const batches = Array.from({ length: 12 }, (_, index) => batch(index + 1));
    await sqsQueue().send(batches, 30);

    expect(received.map((request) => [request.target, request.body.Entries?.length])).toEqual([
      ['AmazonSQS.SendMessageBatch', 10],
      ['AmazonSQS.SendMessageBatch', 2],
    ]);
    expect(received[0]?.body.QueueUrl).toBe(`${baseUrl}/000000000000/webhooks`);
    const entries = received.flatMap((request) => request.body.Entries ?? []);
    expect(entries.map((entry) => JSON.parse(entry.MessageBody))).toEqual(batches);
    expect(new Set(entries.map((entry) => entry.DelaySeconds))).toEqual(new Set([30]));
  });

  it('keeps a retry past 15 minutes waiting in hops: the longest delay, and its due time in the message', async () => {
    const before = Date.now();
    await sqsQueue().send([batch(1)], 3600);

    const [entry] = received[0]?.body.Entries ?? [];
    expect(entry?.DelaySeconds).toBe(900);
    const message = JSON.parse(entry?.MessageBody ?? '{}') as DeliveryBatch;
    expect(message.notBeforeMs).toBeGreaterThanOrEqual(before + 3600 * 1000);
    expect({ ...message, notBeforeMs: undefined }).toEqual({ ...batch(1), notBeforeMs: undefined });
  });

  it('sends again the entries SQS did not take', async () => {
    refuseNext = ['1'];
    await sqsQueue().send([batch(1), batch(2)], 0);

    expect(
      received.map((request) => (request.body.Entries ?? []).map((entry) => JSON.parse(entry.MessageBody).appId)),
    ).toEqual([[1, 2], [2]]);
  });

  it('sends a dead letter to the dead-letter queue', async () => {
    await sqsQueue().deadLetter(batch(3));

    expect(received).toEqual([
      {
        target: 'AmazonSQS.SendMessage',
        body: { QueueUrl: `${baseUrl}/000000000000/webhooks-dead`, MessageBody: JSON.stringify(batch(3)) },
      },
    ]);
  });
});
