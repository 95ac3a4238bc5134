import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ChangeRecord } from './record-changes';

/** A record as DynamoDB Streams hands it out: the Lambda event source and GetRecords share this shape. */
export interface RawStreamRecord {
  eventID?: string;
  eventName?: string;
  dynamodb?: {
    ApproximateCreationDateTime?: number | Date;
    NewImage?: Record<string, unknown>;
    OldImage?: Record<string, unknown>;
    SequenceNumber?: string;
  };
}

const eventNames = new Set(['INSERT', 'MODIFY', 'REMOVE']);

function approximateMs(value: number | Date | undefined): number {
  if (value instanceof Date) return value.getTime();
  // Lambda gives epoch seconds.
  return typeof value === 'number' ? value * 1000 : Date.now();
}

type Unmarshallable = Parameters<typeof unmarshall>[0];

/**
 * The DynamoDB Streams client turns an empty map or list ({"M":{}}) into an attribute value with no
 * member ({}), which unmarshall refuses; read it as an empty map (empty lists are not read here).
 */
function withEmptyMembersAsMaps(value: unknown, depth = 0): unknown {
  if (depth > 40 || typeof value !== 'object' || value === null) return value;
  const attribute = value as Record<string, unknown>;
  if (Object.keys(attribute).length === 0) return { M: {} };
  if (attribute.M && typeof attribute.M === 'object')
    return { M: imageOf(attribute.M as Record<string, unknown>, depth + 1) };
  if (Array.isArray(attribute.L)) return { L: attribute.L.map((item) => withEmptyMembersAsMaps(item, depth + 1)) };
  return attribute;
}

function imageOf(image: Record<string, unknown>, depth = 0): Record<string, unknown> {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, withEmptyMembersAsMaps(value, depth)]));
}

/** Unmarshalled change records; records of another shape are skipped. */
export function changeRecordsOf(records: readonly RawStreamRecord[]): ChangeRecord[] {
  const changes: ChangeRecord[] = [];
  for (const record of records) {
    const name = record.eventName;
    const id = record.eventID ?? record.dynamodb?.SequenceNumber;
    if (name === undefined || !eventNames.has(name) || id === undefined) continue;
    const image = record.dynamodb;
    changes.push({
      recordId: id,
      eventName: name as ChangeRecord['eventName'],
      approximateAtMs: approximateMs(image?.ApproximateCreationDateTime),
      ...(image?.SequenceNumber ? { sequenceNumber: image.SequenceNumber } : {}),
      ...(image?.NewImage ? { newImage: unmarshall(imageOf(image.NewImage) as Unmarshallable) } : {}),
      ...(image?.OldImage ? { oldImage: unmarshall(imageOf(image.OldImage) as Unmarshallable) } : {}),
    });
  }
  return changes;
}
