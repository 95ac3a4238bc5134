import { config } from '../base/config';
import { JsonLogger } from '../base/json-logger';

/** Structured logs of the webhook pipeline (shared/http's logger belongs to the edge). Never pass a secret or a signature to it. */
export const webhookLogger = new JsonLogger('hubspot-platform-slice-webhooks', config.logLevel);
