import { readFileSync } from 'node:fs';
import path from 'node:path';
import { install, useTestGateway } from '../../support/harness';

/**
 * The jest example of docs/testing-your-integration.md is this folder's integration-example.ts,
 * verbatim (the first test checks it): it runs here as a user runs it, against a gateway, with the
 * variables `npm run -s admin -- demo env` exports (BASE, HAPIKEY, APP_ID) set for a fresh developer.
 */
const gateway = useTestGateway();

beforeAll(async () => {
  const developer = await install(gateway);
  process.env.BASE = gateway.baseUrl;
  process.env.HAPIKEY = developer.developerApiKey;
  process.env.APP_ID = String(developer.appId);
});

it('is the example of docs/testing-your-integration.md, verbatim', () => {
  const root = path.resolve(__dirname, '..', '..', '..');
  const doc = readFileSync(path.join(root, 'docs/testing-your-integration.md'), 'utf8');
  const example = readFileSync(path.join(__dirname, 'integration-example.ts'), 'utf8');
  expect(doc).toContain(`\`\`\`ts\n${example}\`\`\``);
});

// After the variables' beforeAll: the example's own hooks read them when they run.
require('./integration-example');
