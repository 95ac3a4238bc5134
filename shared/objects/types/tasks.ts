import { activityRules, activityType } from '../activity-type';

/** Tasks (0-27), an activity (shared/objects/activity-type.ts): `hs_body_preview` from hs_task_body. */
export const objectType = activityType('0-27', 'tasks', 'task', ['hs_task_subject', 'hs_task_body']);

export const rules = activityRules('hs_task_body');
