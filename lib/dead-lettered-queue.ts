import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import { Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';

/**
 * An encrypted SQS queue (`queueId`) whose messages park in its own dead-letter queue (`DeadLetters`,
 * kept 14 days) after 5 failed receives, both in `scope` and removed with the stack. The visibility
 * timeout is six times the consuming function's timeout, as AWS advises for a Lambda event source.
 * The first message in the dead-letter queue raises `DeadLettersAlarm` (`alarmDescription`).
 */
export function deadLetteredQueue(
  scope: Construct,
  props: { queueId: string; consumerTimeout: Duration; deadLettersAre: string; alarmDescription: string },
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
  new Alarm(scope, 'DeadLettersAlarm', {
    alarmDescription: props.alarmDescription,
    metric: deadLetterQueue.metricApproximateNumberOfMessagesVisible({
      period: Duration.minutes(5),
      statistic: 'Maximum',
    }),
    threshold: 0,
    comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
    evaluationPeriods: 1,
    treatMissingData: TreatMissingData.NOT_BREACHING,
  });
  return { queue, deadLetterQueue };
}
