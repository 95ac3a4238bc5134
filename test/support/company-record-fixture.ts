import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../shared/db/client';
import { propertyKey, recordKey } from '../../shared/db/keys';
import { companyKeys } from '../../shared/companies/company-keys';

/**
 * TEST ONLY. Writes a bare company record where the companies API keeps them (recordKey of companyKeys), so the
 * timeline tests can point COMPANY events at a company without going through the companies API.
 */
export async function putCompanyRecordFixture(
  hubId: number,
  companyId: string,
  options: { archived?: boolean } = {},
): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...recordKey(companyKeys, hubId, companyId),
        id: companyId,
        archived: options.archived ?? false,
        properties: {},
      },
    }),
  );
}

/**
 * TEST ONLY. A unique-value company property definition as a table may hold it: the item alone,
 * with no count item beside it (written by a deployment that kept no count).
 */
export async function putLegacyUniqueProperty(hubId: number, name: string): Promise<void> {
  await db.send(
    new PutCommand({
      TableName: tableName,
      Item: {
        ...propertyKey(companyKeys, hubId, name),
        name,
        label: `Legacy ${name}`,
        type: 'string',
        fieldType: 'text',
        description: '',
        groupName: 'companyinformation',
        options: [],
        displayOrder: -1,
        calculated: false,
        externalOptions: false,
        hasUniqueValue: true,
        hidden: false,
        formField: false,
        dataSensitivity: 'non_sensitive',
        modificationMetadata: { archivable: true, readOnlyDefinition: false, readOnlyValue: false },
        archived: false,
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
    }),
  );
}
