import { readFileSync } from 'node:fs';
import path from 'node:path';
import { routes } from '../../../shared/routes';
import type { Route } from '../../../shared/base/route-types';

const root = path.resolve(__dirname, '../../..');
const keyRoutes = (routes as readonly Route[]).filter(
  (route) => route.auth === 'developerKey' || route.auth === 'developerKeyOrToken' || route.auth === 'developerAccount',
);
const otherRoutes = (routes as readonly Route[]).filter((route) => !keyRoutes.includes(route));

describe('developer-key verification is bundled only where a route takes the key', () => {
  it('has developer-key routes to check', () => {
    expect(keyRoutes.length).toBeGreaterThan(0);
  });

  it.each(keyRoutes.map((route) => [route.name, route.entry] as const))('%s installs the verifier', (_name, entry) => {
    expect(readFileSync(path.join(root, entry), 'utf8')).toMatch(
      /^import '\.\.\/\.\.\/shared\/http\/developer-key-auth';$/m,
    );
  });

  it.each(otherRoutes.map((route) => [route.name, route.entry] as const))('%s does not', (_name, entry) => {
    expect(readFileSync(path.join(root, entry), 'utf8')).not.toContain('developer-key-auth');
  });
});
