import { updateLabelHandler } from './label-handlers';

export const handler = updateLabelHandler('updateAssociationLabel');
