import { activityRules, activityType } from '../activity-type';

/**
 * Emails (0-49), an activity (shared/objects/activity-type.ts) that also needs `hs_email_direction`;
 * `hs_body_preview` from the text, else the HTML. HubSpot also takes `sales-email-read` for emails:
 * a scope the catalogue does not know.
 */
export const objectType = activityType(
  '0-49',
  'emails',
  'email',
  ['hs_email_subject', 'hs_email_text'],
  ['hs_timestamp', 'hs_email_direction'],
);

export const rules = activityRules('hs_email_text', 'hs_email_html');
