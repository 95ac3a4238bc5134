import type { ObjectType } from './object-type';
import type { TypeRules } from './type-rules';
import { contactPropertyScopes, contactScopes } from './types/contacts';

/**
 * The registry entry of an activity type (reference/HUBSPOT-WIRE-FACTS-3.md 2.1, 2.2, 2.7): `hs_timestamp` required (emails
 * also `hs_email_direction`), default properties `hs_createdate`, `hs_lastmodifieddate`,
 * `hs_object_id`; HubSpot guards activities (and, inferred, their properties) with the contact
 * scopes. Where `query` looks is not documented for activities: inferred, the type's title and body.
 * No merge; the record types own their associations to activities.
 */
export function activityType<const Name extends string, const Singular extends string>(
  id: string,
  name: Name,
  singular: Singular,
  queryProperties: readonly string[],
  requiredProperties: readonly string[] = ['hs_timestamp'],
) {
  return {
    id,
    name,
    singular,
    keyPrefix: singular.toUpperCase(),
    searchTag: `${id}#`,
    isActivity: true,
    scopes: contactScopes,
    propertyScopes: contactPropertyScopes,
    modifiedProperty: 'hs_lastmodifieddate',
    defaultProperties: ['hs_createdate', 'hs_lastmodifieddate', 'hs_object_id'],
    queryProperties,
    uniqueProperties: [],
    requiredProperties,
    isMergeable: false,
    isStored: true,
  } as const satisfies ObjectType;
}

/** How much of the body the preview keeps (HubSpot's length is not documented: inferred). */
export const bodyPreviewLength = 200;

/** Markup and the whitespace runs it leaves: linear in the value's length (values are at most 65,536 characters). */
const tag = /<[^<>]*>/g;
const whitespace = /\s+/g;

/** The start of an HTML or plain-text body as one line of plain text. */
export function bodyPreviewOf(body: string): string {
  return body.replace(tag, ' ').replace(whitespace, ' ').trim().slice(0, bodyPreviewLength);
}

/** What only activities do (each activity type's module, shared/objects/types/): `hs_body_preview` is computed from the first body property the record holds (an email: its text, else its HTML). */
export function activityRules(...bodyProperties: readonly string[]): TypeRules {
  return {
    computed: {
      hs_body_preview: (properties) => {
        const body = bodyProperties.map((name) => properties[name]).find((value) => value !== undefined);
        return body === undefined ? undefined : bodyPreviewOf(body);
      },
    },
  };
}
