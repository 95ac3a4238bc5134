import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client';
import { companyKey } from '../../shared/db/keys';

/**
 * TEST ONLY. Writes a bare company record where the companies API keeps them (companyKey), so the
 * timeline tests can point COMPANY events at a company without the companies API on this branch.
 */
export async function putCompanyRecordFixture(
  hubId: number,
  companyId: string,
  options: { archived?: boolean } = {},
): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: { ...companyKey(hubId, companyId), id: companyId, archived: options.archived ?? false, properties: {} },
    }),
  );
}
