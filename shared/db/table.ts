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
  globalSecondaryIndexes: [
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  ],
} as const;

export function createTableInput(tableName: string): CreateTableCommandInput {
  const keyNames = new Set<string>([tableDefinition.partitionKey, tableDefinition.sortKey]);
  for (const index of tableDefinition.globalSecondaryIndexes) {
    keyNames.add(index.partitionKey);
    keyNames.add(index.sortKey);
  }
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...keyNames].map((name) => ({ AttributeName: name, AttributeType: 'S' })),
    KeySchema: [
      { AttributeName: tableDefinition.partitionKey, KeyType: 'HASH' },
      { AttributeName: tableDefinition.sortKey, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: tableDefinition.globalSecondaryIndexes.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        { AttributeName: index.sortKey, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    })),
  };
}
