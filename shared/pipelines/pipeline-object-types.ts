import { ValidationError } from '../base/errors';
import { dealPipelineScopes, ticketPipelineScopes } from './pipeline-scopes';

/** A stage as every account starts with it, or as a client describes one; metadata values are strings. */
export interface StageTemplate {
  id: string;
  label: string;
  displayOrder: number;
  metadata: Record<string, string>;
}

export interface PipelineTemplate {
  id: string;
  label: string;
  displayOrder: number;
  stages: readonly StageTemplate[];
}

/**
 * An object type that has pipelines: which tokens name it, who may read and change its pipelines,
 * the pipelines every account starts with, and its stages' metadata rule.
 */
export interface PipelineObjectType {
  id: string;
  name: string;
  scopes: { read: readonly string[]; write: readonly string[] };
  /** Every account's pipelines of this type until its first change (createdAt epoch 0). */
  defaults: readonly PipelineTemplate[];
  /** Checks a stage's metadata and completes it (isClosed); throws a ValidationError naming the field. */
  completeStageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string>;
}

const isTrueOrFalse = (value: string) => value === 'true' || value === 'false';

function requireIsClosed(metadata: Readonly<Record<string, string>>): void {
  const isClosed = metadata.isClosed;
  if (isClosed !== undefined && !isTrueOrFalse(isClosed)) {
    throw new ValidationError(`metadata.isClosed must be "true" or "false", not ${JSON.stringify(isClosed)}`, {
      context: { 'metadata.isClosed': [isClosed] },
    });
  }
}

/**
 * Deal stages: `probability` required, a number from 0.0 to 1.0 (sent as a string). Unless told, a
 * stage at 1.0 (won) or 0.0 (lost) is closed, as the default pipeline's closedwon and closedlost are.
 */
function completeDealStageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const probability = metadata.probability;
  const value = probability === undefined || probability.trim() === '' ? Number.NaN : Number(probability);
  if (!(value >= 0 && value <= 1)) {
    throw new ValidationError(
      `A deal stage needs metadata.probability, a number between 0.0 and 1.0; got ${JSON.stringify(probability ?? null)}`,
      {
        context: { 'metadata.probability': [probability ?? ''] },
      },
    );
  }
  requireIsClosed(metadata);
  return { ...metadata, isClosed: metadata.isClosed ?? String(value === 0 || value === 1) };
}

/** Ticket stages: `ticketState` OPEN or CLOSED when given; a CLOSED stage is closed. */
function completeTicketStageMetadata(metadata: Readonly<Record<string, string>>): Record<string, string> {
  const ticketState = metadata.ticketState;
  if (ticketState !== undefined && ticketState !== 'OPEN' && ticketState !== 'CLOSED') {
    throw new ValidationError(`metadata.ticketState must be OPEN or CLOSED, not ${JSON.stringify(ticketState)}`, {
      context: { 'metadata.ticketState': [ticketState] },
    });
  }
  requireIsClosed(metadata);
  return { ...metadata, isClosed: metadata.isClosed ?? String(ticketState === 'CLOSED') };
}

const dealStage = (id: string, label: string, displayOrder: number, probability: string): StageTemplate => ({
  id,
  label,
  displayOrder,
  metadata: { isClosed: String(probability === '1.0' || probability === '0.0'), probability },
});

const ticketStage = (
  id: string,
  label: string,
  displayOrder: number,
  ticketState: 'OPEN' | 'CLOSED',
): StageTemplate => ({
  id,
  label,
  displayOrder,
  metadata: { ticketState, isClosed: String(ticketState === 'CLOSED') },
});

/** HubSpot's default pipelines (developers.hubspot.com/docs/api/crm/pipelines): the deal pipeline `default` and the ticket pipeline "0". */
export const dealPipelines: PipelineObjectType = {
  id: '0-3',
  name: 'deals',
  scopes: dealPipelineScopes,
  completeStageMetadata: completeDealStageMetadata,
  defaults: [
    {
      id: 'default',
      label: 'Sales Pipeline',
      displayOrder: 0,
      stages: [
        dealStage('appointmentscheduled', 'Appointment Scheduled', 0, '0.2'),
        dealStage('qualifiedtobuy', 'Qualified To Buy', 1, '0.4'),
        dealStage('presentationscheduled', 'Presentation Scheduled', 2, '0.6'),
        dealStage('decisionmakerboughtin', 'Decision Maker Bought-In', 3, '0.8'),
        dealStage('contractsent', 'Contract Sent', 4, '0.9'),
        dealStage('closedwon', 'Closed Won', 5, '1.0'),
        dealStage('closedlost', 'Closed Lost', 6, '0.0'),
      ],
    },
  ],
};

export const ticketPipelines: PipelineObjectType = {
  id: '0-5',
  name: 'tickets',
  scopes: ticketPipelineScopes,
  completeStageMetadata: completeTicketStageMetadata,
  defaults: [
    {
      id: '0',
      label: 'Support Pipeline',
      displayOrder: 0,
      stages: [
        ticketStage('1', 'New', 0, 'OPEN'),
        ticketStage('2', 'Waiting on contact', 1, 'OPEN'),
        ticketStage('3', 'Waiting on us', 2, 'OPEN'),
        ticketStage('4', 'Closed', 3, 'CLOSED'),
      ],
    },
  ],
};

export const pipelineObjectTypes: readonly PipelineObjectType[] = [dealPipelines, ticketPipelines];

/** The plural name or the type id, in any case: `deals`, `0-3`, `tickets`, `0-5`. */
export function findPipelineObjectType(token: string): PipelineObjectType | undefined {
  const wanted = token.toLowerCase();
  return pipelineObjectTypes.find((type) => type.name === wanted || type.id === wanted);
}

export function requirePipelineObjectType(token: string): PipelineObjectType {
  const type = findPipelineObjectType(token);
  if (!type) {
    throw new ValidationError(
      `Unable to infer object type from: ${token}. Pipelines exist for ${pipelineObjectTypes.map((known) => `${known.name} (${known.id})`).join(' and ')}.`,
      {
        context: { objectType: [token] },
      },
    );
  }
  return type;
}
