import { activityRules } from '../activities/activity-rules';
import { companyRules } from '../companies/company-rules';
import { contactRules } from '../contacts/contact-rules';
import { lineItemRules } from '../line-items/line-item-rules';
import type { ObjectType } from '../objects/object-types';
import type { TypeRules } from '../objects/type-rules';
import { productRules } from '../products/product-rules';

export type { TypeRules } from '../objects/type-rules';

/** The rules table: a type without an entry has none (shared/objects/type-rules.ts says what a rule is). */
const rules: Record<string, TypeRules> = {
  companies: companyRules,
  contacts: contactRules,
  products: productRules,
  line_items: lineItemRules,
  notes: activityRules('hs_note_body'),
  calls: activityRules('hs_call_body'),
  emails: activityRules('hs_email_text', 'hs_email_html'),
  meetings: activityRules('hs_meeting_body'),
  tasks: activityRules('hs_task_body'),
};

export function rulesOf(type: ObjectType): TypeRules {
  return rules[type.name] ?? {};
}
