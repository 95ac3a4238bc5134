import { Template } from 'aws-cdk-lib/assertions';
import type { Route } from '../../shared/base/route-types';
import { partitions } from '../../shared/db/keys';
import { routes } from '../../shared/routes';
import { unbundledPlatform } from '../support/unbundled-platform';

/**
 * The grants of the shared steps of a call with an access token (the install check, the limiter,
 * injected faults) follow from taking tokens, not from the row's own table access: a token row
 * with table access 'none' gets them too.
 */
const notFound = routes.find((route) => route.name === 'notFound') as Route;
const tokenRowWithoutTable: Route = {
  name: 'tokenRowWithoutTable',
  method: 'GET',
  path: '/grants/v1/probe',
  entry: 'functions/objects/get-object.ts',
  scopes: ['crm.objects.companies.read'],
  body: 'none',
  table: 'none',
  partitions: [],
};

interface Statement {
  Action: string | string[];
  Condition?: { 'ForAllValues:StringLike'?: { 'dynamodb:LeadingKeys'?: string[] } };
}

/** The statements of the row's role (its inline policies). */
function statementsOfRow(name: string): Statement[] {
  const { stacks } = unbundledPlatform({ routes: [notFound, tokenRowWithoutTable], sandboxControls: true });
  const prefix = `${name.charAt(0).toUpperCase()}${name.slice(1)}Role`;
  const statements: Statement[] = [];
  for (const stack of stacks) {
    const resources = (
      Template.fromStack(stack).toJSON() as {
        Resources: Record<
          string,
          { Type: string; Properties: { Policies?: { PolicyDocument: { Statement: Statement[] } }[] } }
        >;
      }
    ).Resources;
    for (const [id, resource] of Object.entries(resources)) {
      if (resource.Type !== 'AWS::IAM::Role' || !id.startsWith(prefix)) continue;
      for (const policy of resource.Properties.Policies ?? []) statements.push(...policy.PolicyDocument.Statement);
    }
  }
  if (statements.length === 0) throw new Error(`no role of ${name}`);
  return statements;
}

const grantsOn = (statements: Statement[], partition: string): string[] =>
  statements
    .filter((statement) =>
      statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys']?.includes(partition),
    )
    .flatMap((statement) => (Array.isArray(statement.Action) ? statement.Action : [statement.Action]));

describe('a row that takes access tokens and has no table access of its own', () => {
  const statements = statementsOfRow(tokenRowWithoutTable.name);

  it('may read the install states, count its calls and read injected faults, and nothing else of the table', () => {
    expect(grantsOn(statements, partitions.installStates)).toEqual(['dynamodb:GetItem']);
    expect(grantsOn(statements, partitions.rateLimits)).toEqual(['dynamodb:UpdateItem']);
    expect(grantsOn(statements, partitions.faults).sort()).toEqual(
      ['dynamodb:ConditionCheckItem', 'dynamodb:Query', 'dynamodb:UpdateItem'].sort(),
    );
    expect(grantsOn(statements, partitions.hubs)).toEqual([]);
  });
});
