import {
  getAccountWriteValidation,
  setAccountWriteValidation,
  type WriteValidationInput,
  type WriteValidationView,
} from '../records/write-validation-settings';
import { requireTestAccount, withTestAccountWriteGuard, type Developer } from './access';

/**
 * Sets the test account's write validation of the type (records/write-validation-settings.ts),
 * inside the account's write guard, as the other controls that write into it.
 */
export async function setWriteValidation(
  developer: Developer,
  hubIdText: string,
  typeToken: string,
  input: WriteValidationInput,
): Promise<WriteValidationView> {
  const link = await requireTestAccount(developer, hubIdText);
  return withTestAccountWriteGuard(hubIdText, () => setAccountWriteValidation(link.hubId, typeToken, input));
}

/** The test account's write validation of the type. */
export async function getWriteValidation(
  developer: Developer,
  hubIdText: string,
  typeToken: string,
): Promise<WriteValidationView> {
  const link = await requireTestAccount(developer, hubIdText);
  return getAccountWriteValidation(link.hubId, typeToken);
}
