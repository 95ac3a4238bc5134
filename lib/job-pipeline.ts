import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { deadLetteredQueue } from './dead-lettered-queue';
import { partitions } from '../shared/db/keys';
import { BundledFunction } from './bundled-function';
import { tableReadActions, tableWriteActions } from './route-stack';

export interface JobPipelineProps {
  table: ITable;
  logRetention: RetentionDays;
  logLevel: string;
}

/**
 * Jobs, deployed (shared/jobs/job-queue.ts): an SQS queue of chunks and the job function that runs
 * each and queues the next. A chunk that fails is handed out again by SQS; after 5 failures it parks
 * in the dead-letter queue, whose first message raises an alarm. Route functions that start jobs (a
 * row with `startsJobs`) get the queue's URL and SendMessage on it (`sendAccess`).
 */
export class JobPipeline extends Construct {
  readonly queue: Queue;
  readonly deadLetterQueue: Queue;
  readonly jobFunction: BundledFunction;
  readonly sendAccess: { environment: Record<string, string>; statements: PolicyStatement[] };

  constructor(scope: Construct, id: string, props: JobPipelineProps) {
    super(scope, id);
    ({ queue: this.queue, deadLetterQueue: this.deadLetterQueue } = deadLetteredQueue(this, {
      queueId: 'Chunks',
      consumerTimeout: Duration.seconds(60),
      deadLettersAre: 'This is the dead-letter queue of the job queue.',
      alarmDescription: 'Job chunks reached the dead-letter queue (5 failed runs): a list may stay PROCESSING',
    }));
    const sendToQueue = new PolicyStatement({ actions: ['sqs:SendMessage'], resources: [this.queue.queueArn] });
    this.jobFunction = new BundledFunction(this, 'Runner', {
      entry: 'functions/jobs/run-job.ts',
      description: 'jobs: runs one chunk of a job (a dynamic list evaluation) from the job queue and queues the next',
      environment: { TABLE_NAME: props.table.tableName, LOG_LEVEL: props.logLevel, JOB_QUEUE_URL: this.queue.queueUrl },
      logRetention: props.logRetention,
      timeout: Duration.seconds(60),
      statements: [
        // A list evaluation reads an account's records' projections and writes its lists' memberships: the account's partitions only.
        new PolicyStatement({
          actions: [...tableReadActions, ...tableWriteActions],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.hubs] } },
        }),
        sendToQueue,
        new PolicyStatement({
          actions: ['sqs:ReceiveMessage', 'sqs:DeleteMessage', 'sqs:ChangeMessageVisibility', 'sqs:GetQueueAttributes'],
          resources: [this.queue.queueArn],
        }),
      ],
    });
    new EventSourceMapping(this, 'Queue', {
      target: this.jobFunction.function,
      eventSourceArn: this.queue.queueArn,
      batchSize: 1,
      reportBatchItemFailures: true,
      maxConcurrency: 10,
    });
    this.sendAccess = { environment: { JOB_QUEUE_URL: this.queue.queueUrl }, statements: [sendToQueue] };
  }
}
