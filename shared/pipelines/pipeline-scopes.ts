/**
 * Who may read and change the pipelines of each type (HubSpot's pipelines spec: any one of a list
 * suffices). Apart from the type registry so the route table can take the union without loading it.
 */
export const dealPipelineScopes = {
  read: ['crm.objects.deals.read', 'crm.schemas.deals.read'],
  write: ['crm.schemas.deals.write'],
} as const;

export const ticketPipelineScopes = {
  read: ['tickets', 'crm.objects.tickets.read', 'crm.schemas.tickets.read'],
  write: ['tickets', 'crm.schemas.tickets.write'],
} as const;

/** Builds a constant; free of side effects, so esbuild drops the route table's unions from bundles that do not read them. */
/* @__NO_SIDE_EFFECTS__ */
function constant<T>(build: () => T): T {
  return build();
}

/** What a route row asks before it knows the type: any scope of any type; the handler then requires the type's own. */
export const anyPipelineReadScopes = constant(
  () => [...dealPipelineScopes.read, ...ticketPipelineScopes.read] as const,
);
export const anyPipelineWriteScopes = constant(
  () => [...dealPipelineScopes.write, ...ticketPipelineScopes.write] as const,
);
