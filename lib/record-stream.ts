import { Duration, Validations } from 'aws-cdk-lib';
import { PolicyStatement, type IRole } from 'aws-cdk-lib/aws-iam';
import {
  EventSourceMapping,
  FilterCriteria,
  FilterRule,
  type IFunction,
  StartingPosition,
} from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { recordListPrefix, recordListsItemPrefix } from '../shared/db/keys';
import { customRecordKeyPrefixStart } from '../shared/objects/custom-object-types';
import { storedObjectTypes } from '../shared/objects/object-types';
import { streamBatchingWindowSeconds } from '../shared/webhooks/retry-schedule';

/**
 * A consumer of the table's stream (DESIGN.md: one change stream, several consumers; DynamoDB
 * advises at most two per shard): its read of the stream, and its mapping, which passes it only
 * record items.
 */

/** Reading the table's stream: its records, and ListStreams (which takes no resource). */
export function streamReadStatements(streamArn: string): PolicyStatement[] {
  return [
    new PolicyStatement({
      actions: ['dynamodb:DescribeStream', 'dynamodb:GetRecords', 'dynamodb:GetShardIterator'],
      resources: [streamArn],
    }),
    new PolicyStatement({ actions: ['dynamodb:ListStreams'], resources: ['*'] }),
  ];
}

/** The AWS Solutions finding on ListStreams' `*`, acknowledged with its reason. */
export function acknowledgeListStreams(role: IRole | undefined): void {
  if (!role) return;
  // The rule's id as cdk-nag reports it, and as the synth-time validation plugin names it.
  for (const rule of ['AwsSolutions-IAM5[Resource::*]', 'AwsSolutions::AwsSolutions-IAM5[Resource::*]']) {
    Validations.of(role).acknowledge({
      id: rule,
      reason:
        'dynamodb:ListStreams takes no resource (IAM documents it for "*"); reading the stream itself is limited to this table\'s stream ARN.',
    });
  }
}

/**
 * The mapping `Stream` of `scope` that feeds `target` the record items of the stored types and of
 * every custom type (archived ones too when `archived`), and with `listMemberships` the lists'
 * reverse membership items (`LIST_OF#`: shared/webhooks/list-membership-changes.ts), in one filter
 * whose prefixes are alternatives (a mapping takes 5 filters; a pattern at most 4,096 characters).
 * A custom type's other items (its merged-id and unique-value items share the prefix) are not
 * records to a consumer.
 */
export function addRecordStreamMapping(
  scope: Construct,
  props: { target: IFunction; streamArn: string; archived: boolean; listMemberships?: boolean },
): EventSourceMapping {
  const states = props.archived ? [false, true] : [false];
  return new EventSourceMapping(scope, 'Stream', {
    target: props.target,
    eventSourceArn: props.streamArn,
    startingPosition: StartingPosition.LATEST,
    batchSize: 100,
    maxBatchingWindow: Duration.seconds(streamBatchingWindowSeconds),
    bisectBatchOnError: true,
    retryAttempts: 20,
    filters: [
      FilterCriteria.filter({
        dynamodb: {
          Keys: {
            sk: {
              S: [
                ...storedObjectTypes.flatMap((type) =>
                  states.flatMap((isArchived) => FilterRule.beginsWith(recordListPrefix(type, isArchived))),
                ),
                ...states.flatMap((isArchived) =>
                  FilterRule.beginsWith(`${isArchived ? 'ARCHIVED_' : ''}${customRecordKeyPrefixStart}`),
                ),
                ...(props.listMemberships ? FilterRule.beginsWith(recordListsItemPrefix) : []),
              ],
            },
          },
        },
      }),
    ],
  });
}
