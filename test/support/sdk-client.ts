import { Client } from '@hubspot/api-client';
import { install, useTestGateway } from './harness';

/**
 * The official SDK, unchanged but for the base URL, for one fresh install on the file's gateway.
 * No retries: the SDK throws on any status but the one it expects, so every answer must be exact.
 */
export function useSdkClient(): { readonly client: Client } {
  const gateway = useTestGateway();
  let client: Client | undefined;
  beforeAll(async () => {
    const installed = await install(gateway);
    client = new Client({ accessToken: installed.accessToken, basePath: gateway.baseUrl, numberOfApiCallRetries: 0 });
  });
  return {
    get client(): Client {
      if (!client) throw new Error('the SDK client is made in beforeAll');
      return client;
    },
  };
}
