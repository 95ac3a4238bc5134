import type { ChangeRecord } from '../../shared/webhooks/record-changes';

/** The times the stream fixtures write at. */
export const at = '2026-05-01T10:00:00.000Z';
export const later = '2026-05-01T10:05:00.000Z';

/** One history entry of an API write (sourceId: the app). */
export const history = (value: string, timestamp: string) => [
  { value, timestamp, sourceType: 'INTEGRATION', sourceId: '77' },
];

/** A record item of any type, as the stream's images carry it: its id is the key's after the prefix. */
export function recordItem(
  sk: string,
  properties: Record<string, string>,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    pk: 'HUB#40000001',
    sk,
    id: sk.split('#')[1],
    properties,
    history: Object.fromEntries(Object.entries(properties).map(([name, value]) => [name, history(value, at)])),
    associations: {},
    uniqueValues: [],
    createdAt: at,
    updatedAt: at,
    archived: false,
    version: 1,
    ...overrides,
  };
}

/** A stream record of the table with these images. */
export const streamRecord = (
  eventName: ChangeRecord['eventName'],
  newImage?: Record<string, unknown>,
  oldImage?: Record<string, unknown>,
  { recordId = 'r1', approximateAtMs = 0 }: { recordId?: string; approximateAtMs?: number } = {},
): ChangeRecord => ({
  recordId,
  eventName,
  approximateAtMs,
  ...(newImage ? { newImage } : {}),
  ...(oldImage ? { oldImage } : {}),
});
