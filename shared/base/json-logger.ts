/**
 * Structured logs: one JSON line per call on stdout, with the fields (and their order) that
 * `@aws-lambda-powertools/logger` writes, so log queries written for it keep working:
 * `level`, `message`, `timestamp`, `service`, `sampling_rate`, `xray_trace_id` (when Lambda
 * traces the call), then the call's own fields. An Error among them is written as its name,
 * message and stack. About 60 lines in place of Powertools' 20 KiB with its commons, which every
 * function carried and parsed at each cold start (docs/performance.md).
 */
const levels = { DEBUG: 8, INFO: 12, WARN: 16, ERROR: 20, SILENT: 28 } as const;
export type LogLevel = keyof typeof levels;

export type LogFields = Record<string, unknown>;

function levelOf(name: string | undefined): LogLevel {
  const upper = (name ?? '').toUpperCase();
  return upper in levels ? (upper as LogLevel) : 'INFO';
}

/** The `Root` of Lambda's trace header, as Powertools writes it. */
function traceId(): string | undefined {
  const header = process.env._X_AMZN_TRACE_ID;
  if (!header) return undefined;
  const root = header.split(';').find((part) => part.startsWith('Root='));
  return root ? root.slice('Root='.length) : undefined;
}

function replaceErrors(_key: string, value: unknown): unknown {
  if (!(value instanceof Error)) return value;
  return { name: value.name, message: value.message, stack: value.stack };
}

export class JsonLogger {
  private level: LogLevel;

  constructor(
    private readonly service: string,
    level: string | undefined,
  ) {
    this.level = levelOf(level);
  }

  getLevelName(): LogLevel {
    return this.level;
  }

  setLogLevel(level: string): void {
    this.level = levelOf(level);
  }

  debug(message: string, fields?: LogFields): void {
    this.write('DEBUG', message, fields);
  }

  info(message: string, fields?: LogFields): void {
    this.write('INFO', message, fields);
  }

  warn(message: string, fields?: LogFields): void {
    this.write('WARN', message, fields);
  }

  error(message: string, fields?: LogFields): void {
    this.write('ERROR', message, fields);
  }

  private write(level: LogLevel, message: string, fields: LogFields | undefined): void {
    if (levels[level] < levels[this.level]) return;
    const line = {
      level,
      message,
      timestamp: new Date().toISOString(),
      service: this.service,
      sampling_rate: 0,
      xray_trace_id: traceId(),
      ...fields,
    };
    process.stdout.write(`${JSON.stringify(line, replaceErrors)}\n`);
  }
}
