import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * An encrypted SQS queue (`queueId`) whose messages park in its own dead-letter queue (`DeadLetters`,
 * kept 14 days) after 5 failed receives, both in `scope` and removed with the stack. The visibility
 * timeout is six times the consuming function's timeout, as AWS advises for a Lambda event source.
 */
export function deadLetteredQueue(
  scope: Construct,
  props: { queueId: string; consumerTimeout: Duration; deadLettersAre: string },
): { queue: Queue; deadLetterQueue: Queue } {
  const deadLetterQueue = new Queue(scope, 'DeadLetters', {
    retentionPeriod: Duration.days(14),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  Validations.of(deadLetterQueue).acknowledge({ id: 'AwsSolutions-SQS3', reason: props.deadLettersAre });
  const queue = new Queue(scope, props.queueId, {
    visibilityTimeout: Duration.seconds(props.consumerTimeout.toSeconds() * 6),
    encryption: QueueEncryption.SQS_MANAGED,
    enforceSSL: true,
    removalPolicy: RemovalPolicy.DESTROY,
    deadLetterQueue: { queue: deadLetterQueue, maxReceiveCount: 5 },
  });
  return { queue, deadLetterQueue };
}
