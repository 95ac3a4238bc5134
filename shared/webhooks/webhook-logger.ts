import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../base/config';

/** Structured logs of the webhook pipeline (shared/http's logger belongs to the edge). Never pass a secret or a signature to it. */
export const webhookLogger = new Logger({
  serviceName: 'hubspot-platform-slice-webhooks',
  logLevel: config.logLevel as 'INFO',
});
