import { Duration } from 'aws-cdk-lib';
import { Alarm, ComparisonOperator, TreatMissingData } from 'aws-cdk-lib/aws-cloudwatch';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Construct } from 'constructs';
import { partitions } from '../shared/db/keys';
import { BundledFunction } from './bundled-function';
import { tableReadActions, tableWriteActions } from './route-stack';
import { acknowledgeListStreams, addRecordStreamMapping, streamReadStatements } from './record-stream';

export interface AssociationLimitTrackingProps {
  table: ITable;
  logRetention: RetentionDays;
  logLevel: string;
}

/**
 * The table stream's second consumer (the webhook event function is the first; DynamoDB advises at
 * most two per shard): a function that keeps the markers of records near their association limit
 * (shared/limits-tracking/association-limit-tracker.ts) and the memberships of DYNAMIC lists whose
 * ASSOCIATION filters a change reaches beside the record it wrote (shared/lists/association-list-sync.ts).
 * Its role writes the markers' partition and the accounts' (records' lists) only.
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
        'limits tracking and list sync: keeps the markers of records near their association limit and the ASSOCIATION filters of dynamic lists, from the table stream',
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
        // A custom type's schema (its primary display property names the samples); the records, their
        // lists and memberships an ASSOCIATION filter's sync reads and writes: the accounts' partitions.
        new PolicyStatement({
          actions: [...tableReadActions, ...tableWriteActions],
          resources: [props.table.tableArn],
          conditions: { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [partitions.hubs] } },
        }),
        ...streamReadStatements(streamArn),
      ],
    });
    acknowledgeListStreams(this.trackerFunction.role);
    addRecordStreamMapping(this, {
      target: this.trackerFunction.function,
      streamArn,
      archived: false,
      listMemberships: true,
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
