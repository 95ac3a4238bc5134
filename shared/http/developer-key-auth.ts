import { verifyDeveloperApiKey } from '../oauth/developer-keys';
import { installDeveloperKeyVerifier } from './auth';

// Imported for this effect by the handler of every route whose row says `auth: 'developerKey'` or
// `'developerKeyOrToken'` (test/shared/http/developer-key-auth.test.ts checks that they all do).
installDeveloperKeyVerifier(verifyDeveloperApiKey);
