import { Client } from '@hubspot/api-client';
import { crmClient, type CrmClient } from './crm-client';
import { install, useTestGateway } from './harness';

/**
 * The official SDK, unchanged but for the base URL, for one fresh install on the file's gateway.
 * No retries: the SDK throws on any status but the one it expects, so every answer must be exact.
 * `api` is the same install's plain JSON client, for the test support that takes one (createRecords),
 * `gateway` the gateway both call (for installs of other scopes), and `hubId` the install's account
 * (for tests that write its items directly).
 */
export function useSdkClient(): {
  readonly client: Client;
  readonly api: CrmClient;
  readonly gateway: { readonly baseUrl: string };
  readonly hubId: number;
} {
  const gateway = useTestGateway();
  let client: Client | undefined;
  let api: CrmClient | undefined;
  let hubId: number | undefined;
  beforeAll(async () => {
    const installed = await install(gateway);
    hubId = installed.hubId;
    client = new Client({ accessToken: installed.accessToken, basePath: gateway.baseUrl, numberOfApiCallRetries: 0 });
    api = crmClient(gateway, installed.accessToken);
  });
  return {
    gateway,
    get client(): Client {
      if (!client) throw new Error('the SDK client is made in beforeAll');
      return client;
    },
    get api(): CrmClient {
      if (!api) throw new Error('the JSON client is made in beforeAll');
      return api;
    },
    get hubId(): number {
      if (hubId === undefined) throw new Error('the install is made in beforeAll');
      return hubId;
    },
  };
}

/** An error body as HubSpot sends it, as far as the tests read it. */
export interface SdkErrorJson {
  category?: string;
  message?: string;
  context?: Record<string, string[]>;
  errors?: { code?: string; in?: string; context?: Record<string, string[]> }[];
}

/** What the SDK threw for a call that must fail: HubSpot's status and body (a call that succeeds fails the test). */
export async function sdkError(call: Promise<unknown>): Promise<{ code: number; body: SdkErrorJson }> {
  try {
    await call;
  } catch (error) {
    const { code, body } = error as { code: number; body: SdkErrorJson };
    return { code, body };
  }
  throw new Error('the SDK call succeeded');
}
