import { activityRules, activityType } from '../activity-type';

/** Notes (0-46), an activity (shared/objects/activity-type.ts): `hs_body_preview` from hs_note_body. */
export const objectType = activityType('0-46', 'notes', 'note', ['hs_note_body']);

export const rules = activityRules('hs_note_body');
