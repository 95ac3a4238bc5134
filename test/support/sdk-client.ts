import { Client } from '@hubspot/api-client';
import { crmClient, type CrmClient } from './crm-client';
import { install, useTestGateway } from './harness';

/**
 * The official SDK, unchanged but for the base URL, for one fresh install on the file's gateway.
 * No retries: the SDK throws on any status but the one it expects, so every answer must be exact.
 * `api` is the same install's plain JSON client, for the test support that takes one (createRecords),
 * and `gateway` the gateway both call (for installs of other scopes).
 */
export function useSdkClient(): {
  readonly client: Client;
  readonly api: CrmClient;
  readonly gateway: { readonly baseUrl: string };
} {
  const gateway = useTestGateway();
  let client: Client | undefined;
  let api: CrmClient | undefined;
  beforeAll(async () => {
    const installed = await install(gateway);
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
  };
}
