import { GetSecretValueCommand, PutSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { generateSessionSecret, generateSigningKey, publicKeysOf } from '../../shared/oauth/key-generation';
import { newKeyId, parseSecretsDocument, withNewSigningKey } from '../../shared/oauth/key-rotation';

/**
 * Deploy-time custom resource (Custom::PlatformSecrets): creates the Ed25519 signing key and
 * the session secret inside Secrets Manager, so no private key ever appears in a template or
 * in the deployer's shell. A higher KeyGeneration property rotates the signing key. It
 * answers with the public keys only; the stack hands them to every function as TOKEN_PUBLIC_KEYS.
 *
 * It talks to CloudFormation directly (no provider framework), so it must always answer,
 * or the stack would wait for an hour.
 */
interface Properties {
  SigningKeySecretArn: string;
  SessionSecretArn: string;
  KeyGeneration: string;
}

interface Outcome {
  PublicKeys: string;
  ActiveKeyId: string;
}

const secrets = new SecretsManagerClient({});

async function readSecret(secretId: string): Promise<string | undefined> {
  return (await secrets.send(new GetSecretValueCommand({ SecretId: secretId }))).SecretString;
}

/**
 * Only a higher generation rotates. When a deployment fails, CloudFormation rolls this resource
 * back with the previous, lower generation: that must keep the keys, not rotate a second time.
 */
function isNewerGeneration(next: string, previous: string | undefined): boolean {
  return previous === undefined || Number(next) > Number(previous);
}

async function provision(event: CloudFormationCustomResourceEvent): Promise<Outcome | undefined> {
  // The secrets are deleted with the stack; nothing else holds state.
  if (event.RequestType === 'Delete') return undefined;
  const properties = event.ResourceProperties as unknown as Properties;
  const isRotation =
    event.RequestType === 'Update' &&
    isNewerGeneration(
      properties.KeyGeneration,
      (event.OldResourceProperties as unknown as Partial<Properties>).KeyGeneration,
    );

  let signing = parseSecretsDocument(await readSecret(properties.SigningKeySecretArn));
  if (isRotation || !signing.signingKeys?.length) {
    signing = withNewSigningKey(signing, generateSigningKey(newKeyId(new Date())));
    await secrets.send(
      new PutSecretValueCommand({
        SecretId: properties.SigningKeySecretArn,
        SecretString: JSON.stringify({ signingKeys: signing.signingKeys }),
      }),
    );
  }

  const session = parseSecretsDocument(await readSecret(properties.SessionSecretArn));
  if (!session.sessionSecret) {
    await secrets.send(
      new PutSecretValueCommand({
        SecretId: properties.SessionSecretArn,
        SecretString: JSON.stringify({ sessionSecret: generateSessionSecret() }),
      }),
    );
  }

  return { PublicKeys: JSON.stringify(publicKeysOf(signing)), ActiveKeyId: signing.signingKeys?.at(-1)?.kid ?? '' };
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  const physicalResourceId =
    event.RequestType === 'Create' ? `platform-secrets-${event.LogicalResourceId}` : event.PhysicalResourceId;
  let response: Record<string, unknown>;
  try {
    const data = await provision(event);
    response = { Status: 'SUCCESS', ...(data ? { Data: data } : {}) };
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : 'unknown error';
    console.error(
      JSON.stringify({
        level: 'ERROR',
        message: 'provisioning secrets failed',
        reason,
        requestType: event.RequestType,
      }),
    );
    response = { Status: 'FAILED', Reason: reason };
  }
  const body = JSON.stringify({
    ...response,
    PhysicalResourceId: physicalResourceId,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  // The pre-signed S3 URL rejects any content type it was not signed with, so send none.
  const answer = await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
  if (!answer.ok) throw new Error(`CloudFormation response rejected: ${answer.status}`);
}
