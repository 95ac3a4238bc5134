import { CustomResource, Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { RetentionDays } from 'aws-cdk-lib/aws-logs';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { SecretName } from '../shared/base/route-types';
import { BundledFunction } from './bundled-function';

export interface PlatformSecretsProps {
  logRetention: RetentionDays;
  /** Raising this value rotates the signing key at the next deploy. */
  keyGeneration: number;
}

/**
 * The signing key and the session secret in Secrets Manager. Their values are made at deploy
 * time by a custom resource inside AWS, so no private key is in the template, the cloud
 * assembly or the deployer's shell; only the public keys come back, as `publicKeysJson`.
 */
export class PlatformSecrets extends Construct {
  readonly signingKey: Secret;
  readonly sessionSecret: Secret;
  /** JSON object of key id to base64 SPKI public key: the value of TOKEN_PUBLIC_KEYS. */
  readonly publicKeysJson: string;
  readonly activeKeyId: string;

  constructor(scope: Construct, id: string, props: PlatformSecretsProps) {
    super(scope, id);
    this.signingKey = new Secret(this, 'SigningKey', {
      description:
        'Ed25519 access-token signing keys {"signingKeys":[{kid,privateKey,publicKey}]}, newest last; written by the PlatformSecrets custom resource',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.sessionSecret = new Secret(this, 'SessionSecret', {
      description:
        'HMAC key of the install pages\' session cookie {"sessionSecret":base64}; written by the PlatformSecrets custom resource',
      removalPolicy: RemovalPolicy.DESTROY,
    });
    const rotationReason =
      "Rotated by redeploying with a new signingKeyGeneration context value (docs/deploying.md): the new public key must reach every function's TOKEN_PUBLIC_KEYS in the same deployment, which a Secrets Manager rotation Lambda cannot do. The session secret only signs 1-hour install-page cookies.";
    for (const secret of [this.signingKey, this.sessionSecret])
      Validations.of(secret).acknowledge({ id: 'AwsSolutions-SMG4', reason: rotationReason });

    const secretArns = [this.signingKey.secretArn, this.sessionSecret.secretArn];
    const provisioner = new BundledFunction(this, 'Provisioner', {
      entry: 'functions/deploy/provision-secrets.ts',
      description: 'Creates and rotates the signing key and session secret at deploy time',
      environment: {},
      logRetention: props.logRetention,
      timeout: Duration.seconds(60),
      statements: [
        new PolicyStatement({
          actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
          resources: secretArns,
        }),
      ],
    });

    const resource = new CustomResource(this, 'Values', {
      serviceToken: provisioner.function.functionArn,
      resourceType: 'Custom::PlatformSecrets',
      properties: {
        SigningKeySecretArn: this.signingKey.secretArn,
        SessionSecretArn: this.sessionSecret.secretArn,
        KeyGeneration: String(props.keyGeneration),
      },
    });
    // CloudFormation must not call the provisioner before its permissions exist.
    resource.node.addDependency(provisioner.role);
    this.publicKeysJson = resource.getAttString('PublicKeys');
    this.activeKeyId = resource.getAttString('ActiveKeyId');
  }

  secret(name: SecretName): Secret {
    return name === 'signingKey' ? this.signingKey : this.sessionSecret;
  }

  /** Exactly GetSecretValue on one secret: nothing to list, describe or write. */
  readStatement(name: SecretName): PolicyStatement {
    return new PolicyStatement({
      actions: ['secretsmanager:GetSecretValue'],
      resources: [this.secret(name).secretArn],
    });
  }
}
