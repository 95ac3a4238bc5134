import { createLabelHandler } from './label-handlers';

export const handler = createLabelHandler('createAssociationLabel');
