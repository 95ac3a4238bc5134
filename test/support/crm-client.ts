import type { RunningGateway } from '../../local/local-gateway';
import { bearer } from './harness';

export interface ApiResponse<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** A tiny JSON client for the CRM routes: one token, one gateway. */
export interface CrmClient {
  get<T = Json>(path: string): Promise<ApiResponse<T>>;
  post<T = Json>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  patch<T = Json>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  put<T = Json>(path: string, body?: unknown): Promise<ApiResponse<T>>;
  delete<T = Json>(path: string): Promise<ApiResponse<T>>;
}

export interface HistoryJson {
  value: string;
  timestamp: string;
  sourceType: string;
  sourceId?: string;
}

export interface CompanyJson {
  id: string;
  properties: Record<string, string | null>;
  propertiesWithHistory?: Record<string, HistoryJson[]>;
  associations?: Record<string, { results: { id: string; type: string }[] }>;
  createdAt: string;
  updatedAt: string;
  archived: boolean;
  archivedAt?: string;
  new?: boolean;
}

export interface BatchErrorJson {
  status: string;
  category: string;
  message: string;
  context: Record<string, string[]>;
  errors: unknown[];
  links: Record<string, string>;
}

/**
 * Every field a CRM response may carry, all optional: each test asserts the ones it relies
 * on (fetch gives bodies as unknown).
 */
export interface Json extends Partial<Omit<CompanyJson, 'properties'>> {
  properties?: Record<string, string | null>;
  status?: string;
  message?: string;
  correlationId?: string;
  category?: string;
  subCategory?: string;
  context?: Record<string, string[]>;
  errors?: (BatchErrorJson & { code?: string; in?: string })[];
  results?: (CompanyJson & Record<string, unknown>)[];
  paging?: { next: { after: string; link: string } };
  numErrors?: number;
  startedAt?: string;
  completedAt?: string;
  name?: string;
  label?: string;
  type?: string;
  options?: { label: string; value: string; displayOrder: number; hidden: boolean }[];
  hasUniqueValue?: boolean;
  modificationMetadata?: { readOnlyValue: boolean };
}

export function crmClient(gateway: Pick<RunningGateway, 'baseUrl'>, token: string): CrmClient {
  const send = async <T>(method: string, path: string, body?: unknown): Promise<ApiResponse<T>> => {
    const response = await fetch(`${gateway.baseUrl}${path}`, {
      method,
      headers: { ...bearer(token), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      body: (text === '' ? undefined : JSON.parse(text)) as T,
    };
  };
  return {
    get: (path) => send('GET', path),
    post: (path, body) => send('POST', path, body ?? {}),
    patch: (path, body) => send('PATCH', path, body ?? {}),
    put: (path, body) => send('PUT', path, body),
    delete: (path) => send('DELETE', path),
  };
}

/** What a new record of each stored type needs: its required properties (the index keeps emails and names apart). */
function requiredProperties(objectType: string, index: number): Record<string, string> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}${index}`;
  if (objectType === 'contacts') return { email: `c${tag}@records.example`, firstname: `Contact ${index}` };
  if (objectType === 'deals') return { dealname: `Deal ${tag}`, dealstage: 'appointmentscheduled' };
  if (objectType === 'tickets') return { subject: `Ticket ${tag}`, hs_pipeline_stage: '1' };
  if (objectType === 'companies') return { name: `Company ${tag}` };
  if (objectType === 'products') return { name: `Product ${tag}`, price: '10' };
  if (objectType === 'line_items') return { name: `Line item ${tag}`, price: '10', quantity: '1' };
  const activity = { hs_timestamp: new Date(Date.UTC(2026, 0, 1 + index)).toISOString() };
  if (objectType === 'emails') return { ...activity, hs_email_direction: 'EMAIL', hs_email_subject: `Email ${tag}` };
  return activity;
}

/** Every type this service stores, by the name createRecord takes. */
export type StoredTypeName =
  | 'contacts'
  | 'companies'
  | 'deals'
  | 'tickets'
  | 'notes'
  | 'calls'
  | 'emails'
  | 'meetings'
  | 'tasks'
  | 'products'
  | 'line_items';

/**
 * Creates `count` records of a stored type, each with the properties its type requires, through
 * the batch create route (100 a call), and answers their ids in input order. Associations are
 * checked against real records, so a test that associates a contact, deal or ticket creates it first.
 */
export async function createRecords(client: CrmClient, objectType: StoredTypeName, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 100) {
    const size = Math.min(100, count - start);
    const inputs = Array.from({ length: size }, (_, offset) => ({
      properties: requiredProperties(objectType, start + offset),
    }));
    const response = await client.post<{ results: { id: string; properties: Record<string, string | null> }[] }>(
      `/crm/v3/objects/${objectType}/batch/create`,
      { inputs },
    );
    if (response.status !== 201)
      throw new Error(`creating ${objectType}: ${response.status} ${JSON.stringify(response.body)}`);
    const byKey = new Map(
      response.body.results.map((result) => [JSON.stringify(keyOf(objectType, result.properties)), result.id]),
    );
    for (const input of inputs) {
      const id = byKey.get(JSON.stringify(keyOf(objectType, input.properties)));
      if (!id) throw new Error(`creating ${objectType}: no result for ${JSON.stringify(input.properties)}`);
      ids.push(id);
    }
  }
  return ids;
}

function keyOf(objectType: string, properties: Record<string, string | null>): string | null | undefined {
  if (objectType === 'contacts') return properties.email;
  if (objectType === 'deals') return properties.dealname;
  if (objectType === 'tickets') return properties.subject;
  return properties.name;
}

/** One record of a stored type: its id. */
export async function createRecord(client: CrmClient, objectType: StoredTypeName): Promise<string> {
  const [id] = await createRecords(client, objectType, 1);
  if (!id) throw new Error(`no ${objectType} created`);
  return id;
}
