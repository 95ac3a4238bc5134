import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { createPrivateKey, createPublicKey } from 'node:crypto';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import type { SecretsDocument } from '../../../shared/oauth/key-generation';
import { runBundle } from '../../support/run-bundle';
import { synthesisTimeoutMs, synthesizedPlatform } from '../../support/synthesized-platform';

/**
 * The deploy-time custom resource, run from its bundle in the cloud assembly. Secrets Manager
 * cannot run on this machine, so a stand-in speaks its JSON protocol on loopback (reached
 * through the SDK's AWS_ENDPOINT_URL_SECRETS_MANAGER); the same server takes the answer
 * CloudFormation would receive on its pre-signed URL.
 */
interface CloudFormationAnswer {
  Status: 'SUCCESS' | 'FAILED';
  Reason?: string;
  PhysicalResourceId: string;
  RequestId: string;
  Data?: { PublicKeys: string; ActiveKeyId: string };
}

const signingArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:SigningKey-abc';
const sessionArn = 'arn:aws:secretsmanager:us-east-1:000000000000:secret:SessionSecret-def';
const secrets = new Map<string, string>();
const answers = new Map<string, CloudFormationAnswer>();
const answerContentTypes: (string | undefined)[] = [];
let server: Server;
let baseUrl: string;
let bundle: { taskRoot: string; handler: string };

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on('end', () => {
      if (request.method === 'PUT') {
        const answer = JSON.parse(body) as CloudFormationAnswer;
        answers.set(answer.RequestId, answer);
        answerContentTypes.push(request.headers['content-type']);
        response.writeHead(200).end();
        return;
      }
      const action = String(request.headers['x-amz-target']).replace('secretsmanager.', '');
      const input = JSON.parse(body) as { SecretId: string; SecretString?: string };
      const respond = (status: number, payload: object) => {
        response.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(payload));
      };
      if (!secrets.has(input.SecretId))
        return respond(400, { __type: 'ResourceNotFoundException', message: 'no such secret' });
      if (action === 'GetSecretValue')
        return respond(200, {
          ARN: input.SecretId,
          Name: 'secret',
          SecretString: secrets.get(input.SecretId),
          VersionId: 'v',
        });
      if (action === 'PutSecretValue') {
        secrets.set(input.SecretId, input.SecretString ?? '');
        return respond(200, { ARN: input.SecretId, Name: 'secret', VersionId: 'v' });
      }
      return respond(400, { __type: 'InvalidRequestException', message: `unexpected ${action}` });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  const platform = await synthesizedPlatform();
  const resources = (
    platform.template('api') as {
      Resources: Record<
        string,
        { Type: string; Properties: { ServiceToken?: unknown; Handler?: string }; Metadata?: Record<string, unknown> }
      >;
    }
  ).Resources;
  const customResource = Object.values(resources).find((resource) => resource.Type === 'Custom::PlatformSecrets');
  const functionId =
    /"Fn::GetAtt":\["([A-Za-z0-9]+)"/.exec(JSON.stringify(customResource?.Properties.ServiceToken))?.[1] ?? '';
  const provisioner = resources[functionId];
  bundle = {
    taskRoot: path.join(platform.outdir, String(provisioner?.Metadata?.['aws:asset:path'])),
    handler: String(provisioner?.Properties.Handler),
  };
}, synthesisTimeoutMs);

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  // What CloudFormation's AWS::SecretsManager::Secret leaves: a random password, not a document.
  secrets.set(signingArn, 'Zx8!q-random-placeholder');
  secrets.set(sessionArn, 'Ab3?w-random-placeholder');
});

let requestCount = 0;

function event(
  requestType: 'Create' | 'Update' | 'Delete',
  keyGeneration: string,
  oldKeyGeneration = keyGeneration,
): CloudFormationCustomResourceEvent {
  requestCount += 1;
  const properties = {
    ServiceToken: 'arn:aws:lambda:us-east-1:000000000000:function:provisioner',
    SigningKeySecretArn: signingArn,
    SessionSecretArn: sessionArn,
    KeyGeneration: keyGeneration,
  };
  const common = {
    ServiceToken: properties.ServiceToken,
    ResponseURL: `${baseUrl}/cloudformation-answer`,
    StackId: 'arn:aws:cloudformation:us-east-1:000000000000:stack/api/1',
    RequestId: `request-${requestCount}`,
    LogicalResourceId: 'SecretsValues',
    ResourceType: 'Custom::PlatformSecrets',
    ResourceProperties: properties,
  };
  if (requestType === 'Create') return { ...common, RequestType: 'Create' };
  if (requestType === 'Update')
    return {
      ...common,
      RequestType: 'Update',
      PhysicalResourceId: 'platform-secrets-SecretsValues',
      OldResourceProperties: { ...properties, KeyGeneration: oldKeyGeneration },
    };
  return { ...common, RequestType: 'Delete', PhysicalResourceId: 'platform-secrets-SecretsValues' };
}

async function deploy(...events: CloudFormationCustomResourceEvent[]): Promise<CloudFormationAnswer[]> {
  const run = await runBundle({
    ...bundle,
    events,
    environment: {
      PATH: process.env.PATH,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_SECRETS_MANAGER: baseUrl,
      AWS_LAMBDA_FUNCTION_NAME: 'provisioner',
    },
  });
  const failures = run.results.filter((result) => result.error);
  if (failures.length > 0)
    throw new Error(
      `the handler threw: ${failures.map((failure) => failure.error).join('; ')}\n${run.stdout}${run.stderr}`,
    );
  return events.map((sent) => {
    const answer = answers.get(sent.RequestId);
    if (!answer) throw new Error(`no answer to ${sent.RequestType}`);
    return answer;
  });
}

function stored(arn: string): SecretsDocument {
  return JSON.parse(secrets.get(arn) ?? '{}') as SecretsDocument;
}

describe('secrets provisioner (custom resource)', () => {
  it('creates an Ed25519 signing key and a session secret, and answers with the public key only', async () => {
    const [answer] = await deploy(event('Create', '1'));

    const signing = stored(signingArn);
    const key = signing.signingKeys?.[0];
    expect(answer?.Status).toBe('SUCCESS');
    expect(signing.signingKeys).toHaveLength(1);
    expect(JSON.parse(answer?.Data?.PublicKeys ?? '{}')).toEqual({ [key?.kid ?? '']: key?.publicKey });
    expect(answer?.Data?.ActiveKeyId).toBe(key?.kid);
    expect(JSON.stringify(answer)).not.toContain(key?.privateKey);
    expect(Buffer.from(stored(sessionArn).sessionSecret ?? '', 'base64')).toHaveLength(32);
  });

  it('keeps the keys when the stack updates without a new key generation', async () => {
    const [created, updated] = await deploy(event('Create', '1'), event('Update', '1'));

    expect(updated?.Status).toBe('SUCCESS');
    expect(updated?.Data).toEqual(created?.Data);
    expect(updated?.PhysicalResourceId).toBe(created?.PhysicalResourceId);
  });

  it('rotates on a new key generation: a new active key, the previous one still published', async () => {
    const [created, rotated] = await deploy(event('Create', '1'), event('Update', '2', '1'));

    const before = JSON.parse(created?.Data?.PublicKeys ?? '{}') as Record<string, string>;
    const after = JSON.parse(rotated?.Data?.PublicKeys ?? '{}') as Record<string, string>;
    expect(Object.keys(after)).toHaveLength(2);
    expect(after).toMatchObject(before);
    expect(rotated?.Data?.ActiveKeyId).not.toBe(created?.Data?.ActiveKeyId);
    expect(stored(signingArn).signingKeys?.at(-1)?.kid).toBe(rotated?.Data?.ActiveKeyId);
  });

  it('keeps the keys when a failed deployment rolls the generation back', async () => {
    const [, rotated, rolledBack] = await deploy(
      event('Create', '1'),
      event('Update', '2', '1'),
      event('Update', '1', '2'),
    );

    expect(rolledBack?.Status).toBe('SUCCESS');
    expect(rolledBack?.Data).toEqual(rotated?.Data);
  });

  it('does not replace the session secret on rotation', async () => {
    await deploy(event('Create', '1'));
    const sessionSecret = stored(sessionArn).sessionSecret;

    await deploy(event('Update', '2', '1'));

    expect(stored(sessionArn).sessionSecret).toBe(sessionSecret);
  });

  it('writes a private key the token function can load', async () => {
    await deploy(event('Create', '1'));
    const key = stored(signingArn).signingKeys?.[0];

    const privateKey = createPrivateKey({
      key: Buffer.from(key?.privateKey ?? '', 'base64'),
      format: 'der',
      type: 'pkcs8',
    });

    expect(privateKey.asymmetricKeyType).toBe('ed25519');
    expect(createPublicKey(privateKey).export({ format: 'der', type: 'spki' }).toString('base64')).toBe(key?.publicKey);
  });

  it('sends its answer without a content type, which the pre-signed URL was not signed with', async () => {
    answerContentTypes.length = 0;

    await deploy(event('Create', '1'));

    expect(answerContentTypes).toEqual(['']);
  });

  it('answers Delete with success and leaves the secrets to CloudFormation', async () => {
    const [answer] = await deploy(event('Delete', '1'));

    expect(answer?.Status).toBe('SUCCESS');
    expect(secrets.get(signingArn)).toBe('Zx8!q-random-placeholder');
  });

  it('answers FAILED instead of leaving CloudFormation waiting when Secrets Manager refuses', async () => {
    secrets.delete(signingArn);

    const [answer] = await deploy(event('Create', '1'));

    expect(answer?.Status).toBe('FAILED');
    expect(answer?.Reason).toMatch(/ResourceNotFound/);
  });
});
