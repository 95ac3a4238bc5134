import type { TypeRules } from '../objects/type-rules';

/** How much of the body the preview keeps (HubSpot's length is not documented: inferred). */
export const bodyPreviewLength = 200;

/** Markup and the whitespace runs it leaves: linear in the value's length (values are at most 65,536 characters). */
const tag = /<[^<>]*>/g;
const whitespace = /\s+/g;

/** The start of an HTML or plain-text body as one line of plain text. */
export function bodyPreviewOf(body: string): string {
  return body.replace(tag, ' ').replace(whitespace, ' ').trim().slice(0, bodyPreviewLength);
}

/** What only activities do: `hs_body_preview` is computed from the first body property the record holds (an email: its text, else its HTML). */
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
