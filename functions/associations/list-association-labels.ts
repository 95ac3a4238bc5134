import { listLabelsHandler } from './label-handlers';

export const handler = listLabelsHandler('listAssociationLabels');
