import { routePartsOf } from '../../../shared/http/route-parts';
import { routes } from '../../../shared/routes';

const keyRoutes = routes.filter(
  (route) =>
    route.scopes !== 'public' &&
    'auth' in route &&
    (route.auth === 'developerKey' || route.auth === 'developerKeyOrToken' || route.auth === 'developerAccount'),
);
const otherRoutes = routes.filter((route) => !(keyRoutes as readonly (typeof route)[]).includes(route));

describe('the developer API key check is a part of the chain of the rows that take the key alone', () => {
  it('has developer-key routes to check', () => {
    expect(keyRoutes.length).toBeGreaterThan(0);
  });

  it.each(keyRoutes.map((route) => [route.name] as const))('%s checks the key', (name) => {
    expect(routePartsOf(name).developerKey).toBeInstanceOf(Function);
  });

  it.each(otherRoutes.map((route) => [route.name] as const))('%s does not', (name) => {
    expect(routePartsOf(name).developerKey).toBeUndefined();
  });
});
