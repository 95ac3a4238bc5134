import { activityRules, activityType } from '../activity-type';

/** Meetings (0-47), an activity (shared/objects/activity-type.ts): `hs_body_preview` from hs_meeting_body. */
export const objectType = activityType('0-47', 'meetings', 'meeting', ['hs_meeting_title', 'hs_meeting_body']);

export const rules = activityRules('hs_meeting_body');
