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
