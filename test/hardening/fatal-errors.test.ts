import { expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');

interface Line {
  level: number;
  msg: string;
  err?: { message: string; stack: string };
}

/**
 * What the service and the agent install at start (exitOnFatal), in a process of its own: a failure
 * nothing handled used to end the process with a stack on stderr only, and no line in the log.
 */
function run(fault: string, close = 'log.info("closed")'): { status: number | null; lines: Line[] } {
  // Inside the checkout, so the script resolves the service's modules.
  const script = path.join(__dirname, `.tmp-fatal-${process.pid}.ts`);
  writeFileSync(
    script,
    `import { createLogger, exitOnFatal } from '../../src/logger';
const log = createLogger('info', 'probe');
exitOnFatal(log, async () => { ${close}; }, 500);
setTimeout(() => log.info('still running'), 5_000);
${fault}
`,
  );
  try {
    const child = spawnSync(TSX, [script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 << 20 });
    const lines = child.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Line);
    return { status: child.status, lines };
  } finally {
    rmSync(script, { force: true });
  }
}

describe('a failure nothing handled', () => {
  test('an unhandled rejection is one fatal log line with its stack, then the process closes and exits 1', () => {
    const { status, lines } = run(`void Promise.reject(new Error('boom in a promise'));`);
    expect(status).toBe(1);
    expect(lines.map((l) => [l.level, l.msg, l.err?.message])).toEqual([
      [60, 'unhandled rejection: stopping', 'boom in a promise'],
      [30, 'closed', undefined],
    ]);
    expect(lines[0].err!.stack).toMatch(/^Error: boom in a promise\n\s+at /);
  });

  test('a fatal line still in flight when the process exits comes out whole, before the lines after it', () => {
    // A megabyte outlasts the pipe's buffer, so its write is still going when close logs and exits.
    const { status, lines } = run(`void Promise.reject(new Error('x'.repeat(1_000_000)));`);
    expect(status).toBe(1);
    expect(lines.map((l) => [l.level, l.msg, l.err?.message.length])).toEqual([
      [60, 'unhandled rejection: stopping', 1_000_000],
      [30, 'closed', undefined],
    ]);
  });

  test('an uncaught exception too', () => {
    const { status, lines } = run(`setTimeout(() => { throw new Error('boom in a timer'); }, 0);`);
    expect(status).toBe(1);
    expect(lines.map((l) => [l.level, l.msg, l.err?.message])).toEqual([
      [60, 'uncaught exception: stopping', 'boom in a timer'],
      [30, 'closed', undefined],
    ]);
  });

  test('a close that never ends does not keep the process: it exits 1 at the bound', () => {
    const { status, lines } = run(`void Promise.reject(new Error('boom'));`, 'await new Promise(() => setInterval(() => undefined, 1000))');
    expect(status).toBe(1);
    expect(lines.map((l) => l.msg)).toEqual(['unhandled rejection: stopping']);
  });
});
