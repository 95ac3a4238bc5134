import { config } from '../base/config';
import { JsonLogger } from '../base/json-logger';

/** Structured JSON logs. Never pass a token, secret, password or raw path with a token to it. */
export const logger = new JsonLogger('hubspot-platform-slice', config.logLevel);
