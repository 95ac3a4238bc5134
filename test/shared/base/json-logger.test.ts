import { JsonLogger } from '../../../shared/base/json-logger';

/** What the logger writes to stdout while `work` runs, one parsed object per line. */
function captured(work: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  try {
    work();
  } finally {
    spy.mockRestore();
  }
  for (const line of lines) expect(line.endsWith('\n')).toBe(true);
  return lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('JsonLogger', () => {
  const traceHeader = process.env._X_AMZN_TRACE_ID;
  afterEach(() => {
    if (traceHeader === undefined) delete process.env._X_AMZN_TRACE_ID;
    else process.env._X_AMZN_TRACE_ID = traceHeader;
  });

  it('writes the Powertools fields in their order, then the call fields', () => {
    process.env._X_AMZN_TRACE_ID = 'Root=1-5759e988-bd862e3fe1be46a994272793;Parent=53995c3f42cd8ad8;Sampled=1';
    const [line] = captured(() =>
      new JsonLogger('svc', 'INFO').info('request', { route: 'getRecord', statusCode: 200 }),
    );
    expect(Object.keys(line ?? {})).toEqual([
      'level',
      'message',
      'timestamp',
      'service',
      'sampling_rate',
      'xray_trace_id',
      'route',
      'statusCode',
    ]);
    expect(line).toMatchObject({
      level: 'INFO',
      message: 'request',
      service: 'svc',
      sampling_rate: 0,
      xray_trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      route: 'getRecord',
      statusCode: 200,
    });
    expect(new Date(String(line?.timestamp)).toISOString()).toBe(line?.timestamp);
  });

  it('leaves xray_trace_id out when Lambda does not trace the call', () => {
    delete process.env._X_AMZN_TRACE_ID;
    const [line] = captured(() => new JsonLogger('svc', 'INFO').warn('w'));
    expect(line).not.toHaveProperty('xray_trace_id');
    expect(line?.level).toBe('WARN');
  });

  it('writes an Error field as its name, message and stack', () => {
    const [line] = captured(() => new JsonLogger('svc', 'INFO').error('failed', { error: new TypeError('bad') }));
    expect(line?.error).toMatchObject({ name: 'TypeError', message: 'bad' });
    expect(String((line?.error as { stack?: string } | undefined)?.stack)).toContain('TypeError: bad');
  });

  it('drops calls below its level, takes the level in any case, and falls back to INFO for an unknown one', () => {
    const logger = new JsonLogger('svc', 'warn');
    expect(logger.getLevelName()).toBe('WARN');
    const lines = captured(() => {
      logger.debug('d');
      logger.info('i');
      logger.warn('w');
      logger.error('e');
      logger.setLogLevel('DEBUG');
      logger.debug('d2');
    });
    expect(lines.map((line) => line.message)).toEqual(['w', 'e', 'd2']);
    expect(new JsonLogger('svc', 'LOUD').getLevelName()).toBe('INFO');
    expect(new JsonLogger('svc', undefined).getLevelName()).toBe('INFO');
    const silent = new JsonLogger('svc', 'SILENT');
    expect(captured(() => silent.error('e'))).toEqual([]);
  });
});
