import { findDeveloperApiKey, type DeveloperApiKey } from '../db/developers';
import { hashSecret, secretMatchesHash } from './secrets';

/** Longer than any key we issue; anything longer is refused without a database read. */
const maxDeveloperApiKeyLength = 512;

/**
 * The developer API key record a presented key unlocks, or undefined. Looked up by the key's SHA-256
 * hash (one GetItem), then the stored hash is compared with the presented key in constant time.
 */
export async function verifyDeveloperApiKey(presented: string): Promise<DeveloperApiKey | undefined> {
  if (presented === '' || presented.length > maxDeveloperApiKeyLength) return undefined;
  const found = await findDeveloperApiKey(hashSecret(presented));
  return found && secretMatchesHash(presented, found.apiKeyHash) ? found : undefined;
}
