// Loads a function bundle the way the Lambda Node.js runtime does and invokes it with events.
// Runs in its own Node process with only the function's environment, so nothing of the test
// process (transpiler, module cache, source tree) can stand in for a missing piece of the bundle.
//   node invoke-bundle.mjs <task root> <handler setting, e.g. index.handler> <events.json> <results.json>
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomUUID } from 'node:crypto';

const [taskRoot, handlerSetting, eventsFile, resultsFile] = process.argv.slice(2);
const separator = handlerSetting.lastIndexOf('.');
const moduleName = handlerSetting.slice(0, separator);
const exportName = handlerSetting.slice(separator + 1);

// The runtime looks for the module with these extensions, in this order.
const modulePath = ['.js', '.mjs', '.cjs']
  .map((extension) => path.join(taskRoot, `${moduleName}${extension}`))
  .find((candidate) => existsSync(candidate));
if (!modulePath) throw new Error(`Runtime.ImportModuleError: cannot find module ${moduleName} in ${taskRoot}`);
const loaded = await import(pathToFileURL(modulePath).href);
const handler = loaded[exportName];
if (typeof handler !== 'function') throw new Error(`Runtime.HandlerNotFound: ${handlerSetting} is not a function`);

function context() {
  const deadline = Date.now() + 10_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: process.env.AWS_LAMBDA_FUNCTION_NAME,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:${process.env.AWS_REGION}:000000000000:function:${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    memoryLimitInMB: '512',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${process.env.AWS_LAMBDA_FUNCTION_NAME}`,
    logStreamName: 'bundle-test',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
  };
}

const results = [];
for (const event of JSON.parse(readFileSync(eventsFile, 'utf8'))) {
  try {
    results.push({ response: await handler(event, context()) });
  } catch (error) {
    // API Gateway turns a thrown invocation error into a 500.
    results.push({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}
writeFileSync(resultsFile, JSON.stringify(results));
// Like Lambda freezing the sandbox: open sockets (DynamoDB keep-alive) must not keep it running.
process.exit(0);
