import { installRecorder } from '../../bench/dynamo-recorder';
import { ApiClient } from '../../bench/http-client';
import { startTestGateway } from './harness';

/** A test gateway and the bench's HTTP client on it for one describe block, with the DynamoDB call recorder installed. */
export function useBenchApi(): {
  readonly gateway: Awaited<ReturnType<typeof startTestGateway>>;
  readonly api: ApiClient;
} {
  let gateway: Awaited<ReturnType<typeof startTestGateway>> | undefined;
  let api: ApiClient | undefined;
  beforeAll(async () => {
    installRecorder();
    gateway = await startTestGateway();
    api = new ApiClient(gateway.baseUrl);
  });
  afterAll(async () => {
    api?.close();
    await gateway?.close();
  });
  return {
    get gateway() {
      if (!gateway) throw new Error('the gateway starts in beforeAll');
      return gateway;
    },
    get api() {
      if (!api) throw new Error('the client is made in beforeAll');
      return api;
    },
  };
}
