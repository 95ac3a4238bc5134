/**
 * The SQS client and the commands the delivery queue sends, by name: delivery-queue.ts imports this
 * module with import(), so a function evaluates the client only when it first sends (the flush of a
 * test account with nothing pending never does), and the bundle carries these commands, not the
 * whole package (import() of the package itself brings every command: 12 KiB more).
 */
export {
  DeleteMessageCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
