/**
 * The cold-start floor: the least a function of this service can be. It creates a
 * DynamoDBDocumentClient and answers with one GetItem. Bundled exactly like the real functions.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';

const endpoint = process.env.DYNAMODB_ENDPOINT;
const client = DynamoDBDocumentClient.from(new DynamoDBClient(endpoint ? { endpoint } : {}));
const tableName = process.env.TABLE_NAME;

export const handler = async (event: {
  pathParameters?: Record<string, string>;
}): Promise<{ statusCode: number; body: string }> => {
  const result = await client.send(
    new GetCommand({ TableName: tableName, Key: { pk: 'FLOOR', sk: event.pathParameters?.id ?? 'FLOOR' } }),
  );
  return { statusCode: result.Item ? 200 : 404, body: JSON.stringify(result.Item ?? {}) };
};
