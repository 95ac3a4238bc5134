import { CfnOutput, Duration, RemovalPolicy, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import { BlockPublicAccess, Bucket, BucketEncryption, type IBucket } from 'aws-cdk-lib/aws-s3';
import type { Construct } from 'constructs';
import { journalRetentionDays } from '../shared/webhooks-journal/journal-limits';
import { tableDefinition } from '../shared/db/table';

/**
 * The single table, built from the same definition as the local runtime and the tests, and the
 * bucket for the files the API hands out through pre-signed URLs (webhooks journal entries: kept
 * three days by a lifecycle rule). They live in their own stack so that tearing down or replacing
 * the API never touches the data.
 */
export class DataStack extends Stack {
  readonly table: ITable;
  readonly journalFiles: IBucket;

  constructor(scope: Construct, id: string, props: StackProps = {}) {
    super(scope, id, props);
    const table = new Table(this, 'Table', {
      partitionKey: { name: tableDefinition.partitionKey, type: AttributeType.STRING },
      sortKey: { name: tableDefinition.sortKey, type: AttributeType.STRING },
      billingMode: BillingMode.PAY_PER_REQUEST,
      timeToLiveAttribute: tableDefinition.timeToLiveAttribute,
      // Webhook events are made from it (lib/webhook-pipeline.ts).
      stream: StreamViewType[tableDefinition.streamViewType],
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      // Apps, installs and CRM records outlive any stack: `cdk destroy` leaves the table behind.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.table = table;
    new CfnOutput(this, 'TableName', {
      value: table.tableName,
      description: 'DynamoDB table (TABLE_NAME for the admin CLI)',
    });
    const journalFiles = new Bucket(this, 'JournalFiles', {
      encryption: BucketEncryption.S3_MANAGED,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      lifecycleRules: [{ id: 'journal-retention', expiration: Duration.days(journalRetentionDays) }],
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(journalFiles).acknowledge({
      id: 'AwsSolutions-S1',
      reason:
        'The bucket holds transient files (three days) that are only read through short-lived pre-signed URLs; CloudTrail data events, not a second logging bucket, are where reads would be audited.',
    });
    this.journalFiles = journalFiles;
    new CfnOutput(this, 'JournalFilesBucket', {
      value: journalFiles.bucketName,
      description: 'S3 bucket for webhooks journal files (three-day lifecycle)',
    });
  }
}
