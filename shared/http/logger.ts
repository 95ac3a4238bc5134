import { Logger } from '@aws-lambda-powertools/logger';
import { config } from '../base/config';

/** Structured JSON logs. Never pass a token, secret, password or raw path with a token to it. */
export const logger = new Logger({
  serviceName: 'hubspot-platform-slice',
  logLevel: config.logLevel as 'INFO',
});
