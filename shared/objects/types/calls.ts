import { activityRules, activityType } from '../activity-type';

/** Calls (0-48), an activity (shared/objects/activity-type.ts): `hs_body_preview` from hs_call_body. */
export const objectType = activityType('0-48', 'calls', 'call', ['hs_call_title', 'hs_call_body']);

export const rules = activityRules('hs_call_body');
