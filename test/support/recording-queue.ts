import type { DeliveryBatch, DeliveryQueue } from '../../shared/webhooks/delivery-queue';

/** A delivery queue that keeps what it is given, for tests of what event generation and delivery queue. */
export interface RecordingQueue extends DeliveryQueue {
  /** Every batch sent, in order. */
  batches: DeliveryBatch[];
  /** The same batches, each with the delay it was sent with. */
  sent: { batch: DeliveryBatch; delaySeconds: number }[];
}

export function recordingQueue(): RecordingQueue {
  const batches: DeliveryBatch[] = [];
  const sent: { batch: DeliveryBatch; delaySeconds: number }[] = [];
  return {
    batches,
    sent,
    send: async (given, delaySeconds) => {
      batches.push(...given);
      sent.push(...given.map((batch) => ({ batch, delaySeconds })));
    },
    deadLetter: async () => undefined,
  };
}
