import { deleteLabelHandler } from './label-handlers';

/** The published spec's spelling, /crm/associations/v4/...; same behaviour as the SDK's /crm/v4/associations/... */
export const handler = deleteLabelHandler('deleteAssociationLabelSpecPath');
