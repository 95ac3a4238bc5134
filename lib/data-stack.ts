import { CfnOutput, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import { AttributeType, BillingMode, StreamViewType, Table, type ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';
import { tableDefinition } from '../shared/db/table';

/**
 * The single table, built from the same definition as the local runtime and the tests. It
 * lives in its own stack so that tearing down or replacing the API never touches the data.
 */
export class DataStack extends Stack {
  readonly table: ITable;

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
  }
}
