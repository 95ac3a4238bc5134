import {
  createAssociationLabel, deleteAssociationLabel, listAssociationLabels, updateAssociationLabel,
} from '../../shared/associations/types/association-labels';
import { httpHandler } from '../../shared/http/http-handler';
import { noContent, ok } from '../../shared/http/responses';
import { createLabelBody, labelPath, labelsPath, updateLabelBody } from './association.schema';

/**
 * The label routes exist twice: on the SDK's /crm/v4/associations/... paths and on the published
 * spec's /crm/associations/v4/... paths. Each row gets its own function; they share these bodies.
 */
export const listLabelsHandler = (name: 'listAssociationLabels' | 'listAssociationLabelsSpecPath') =>
  httpHandler(name, { path: labelsPath }, async ({ path, auth }) =>
    ok({ results: await listAssociationLabels(auth.hubId, path.fromObjectType, path.toObjectType) }));

/** 200, not 201: the real API answers a label create with 200 (reference section 11). */
export const createLabelHandler = (name: 'createAssociationLabel' | 'createAssociationLabelSpecPath') =>
  httpHandler(name, { path: labelsPath, body: createLabelBody }, async ({ path, body, auth }) =>
    ok({ results: await createAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, body) }));

export const updateLabelHandler = (name: 'updateAssociationLabel' | 'updateAssociationLabelSpecPath') =>
  httpHandler(name, { path: labelsPath, body: updateLabelBody }, async ({ path, body, auth }) => {
    await updateAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, body);
    return noContent();
  });

export const deleteLabelHandler = (name: 'deleteAssociationLabel' | 'deleteAssociationLabelSpecPath') =>
  httpHandler(name, { path: labelPath }, async ({ path, auth }) => {
    await deleteAssociationLabel(auth.hubId, path.fromObjectType, path.toObjectType, path.associationTypeId);
    return noContent();
  });
