import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';

/**
 * The single table, described once. The CDK data stack, the local runtime and the tests
 * all build the table from this.
 */
export const tableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Epoch seconds; DynamoDB deletes expired items late, so expiry is also checked on read. */
  timeToLiveAttribute: 'ttl',
  /** Webhook events are made from the stream: they need the item before and after every change. */
  streamViewType: 'NEW_AND_OLD_IMAGES',
} as const;

export function createTableInput(tableName: string): CreateTableCommandInput {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [tableDefinition.partitionKey, tableDefinition.sortKey].map((name) => ({
      AttributeName: name,
      AttributeType: 'S',
    })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ],
    StreamSpecification: { StreamEnabled: true, StreamViewType: tableDefinition.streamViewType },
  };
}
