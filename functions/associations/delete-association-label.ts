import { deleteLabelHandler } from './label-handlers';

export const handler = deleteLabelHandler('deleteAssociationLabel');
