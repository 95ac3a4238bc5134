import { Duration, Validations } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { EventSourceMapping, FilterCriteria, FilterRule, StartingPosition } from 'aws-cdk-lib/aws-lambda';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { partitions, recordListPrefix } from '../shared/db/keys';
import { customRecordKeyPrefixStart } from '../shared/objects/custom-object-types';
import { storedObjectTypes } from '../shared/objects/object-types';
import { BundledFunction } from './bundled-function';
import { streamBatchingWindowSeconds } from '../shared/webhooks/retry-schedule';

export interface AssociationLimitTrackingProps {
  table: ITable;
  logRetention: RetentionDays;
  logLevel: string;
}

/**
 * The table stream's second consumer (the webhook event function is the first; DynamoDB advises at
 * most two per shard): a function that keeps the markers of records near their association limit
 * (shared/limits-tracking/association-limit-tracker.ts). Its role writes only their partition.
 */
export class AssociationLimitTracking extends Construct {
  readonly trackerFunction: BundledFunction;

  constructor(scope: Construct, id: string, props: AssociationLimitTrackingProps) {
    super(scope, id);
    const streamArn = props.table.tableStreamArn;
    if (!streamArn) throw new Error("association limit tracking needs the table's stream (lib/data-stack.ts)");

    this.trackerFunction = new BundledFunction(this, 'Tracker', {
      entry: 'functions/limits/track-association-limits.ts',
      description:
        'limits tracking: keeps the markers and totals of records near or at their association limit, from the table stream',
      environment: { TABLE_NAME: props.table.tableName, LOG_LEVEL: props.logLevel },
      logRetention: props.logRetention,
      timeout: Duration.seconds(60),
      statements: [
        // The markers and totals: read, moved in transactions conditioned on what was read.
        new PolicyStatement({
          actions: [
            'dynamodb:GetItem',
            'dynamodb:BatchGetItem',
            'dynamodb:Query',
            'dynamodb:PutItem',
            'dynamodb:UpdateItem',
            'dynamodb:DeleteItem',
          ],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.associationLimits] } },
        }),
        // A custom type's schema (its primary display property names the samples): read only.
        new PolicyStatement({
          actions: ['dynamodb:GetItem'],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.hubs] } },
        }),
        new PolicyStatement({
          actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
          resources: [streamArn],
        }),
        new PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] }),
      ],
    });
    for (const rule of ['AwsSolutions-IAM5[Resource::*]', 'AwsSolutions::AwsSolutions-IAM5[Resource::*]']) {
      Validations.of(this.trackerFunction.role).acknowledge({
        id: rule,
        reason:
          'dynamodb:ListStreams takes no resource (IAM documents it for "*"); reading the stream itself is limited to this table\'s stream ARN.',
      });
    }
    new EventSourceMapping(this, 'Stream', {
      target: this.trackerFunction.function,
      eventSourceArn: streamArn,
      startingPosition: StartingPosition.LATEST,
      batchSize: 100,
      maxBatchingWindow: Duration.seconds(streamBatchingWindowSeconds),
      bisectBatchOnError: true,
      retryAttempts: 20,
      // Only active record items (archived ones never hold a marker): the stored standard types' and every custom type's.
      filters: [
        FilterCriteria.filter({
          dynamodb: {
            Keys: {
              sk: {
                S: [
                  ...storedObjectTypes.flatMap((type) => FilterRule.beginsWith(recordListPrefix(type, false))),
                  ...FilterRule.beginsWith(customRecordKeyPrefixStart),
                ],
              },
            },
          },
        }),
      ],
    });
    new Alarm(this, 'StreamLagAlarm', {
      alarmDescription:
        'Association limit markers lag the table by more than 5 minutes (stream iterator age of the tracker function)',
      metric: this.trackerFunction.function.metric('IteratorAge', {
        period: Duration.minutes(5),
        statistic: 'Maximum',
      }),
      threshold: 300_000,
      comparisonOperator: ComparisonOperator.GREATER_THAN_THRESHOLD,
      evaluationPeriods: 2,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
  }
}
