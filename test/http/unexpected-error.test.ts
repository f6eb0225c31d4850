import { expect } from '@jest/globals';
import pino from 'pino';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

const UNEXPECTED = { code: 500, message: 'Unexpected error.', fields: '' };

interface LogLine {
  level: number;
  msg: string;
  err?: { type?: string; message?: string; stack?: string };
}

/**
 * README "Errors": unexpected errors are logged with their stack and answered `Unexpected error.`,
 * never with a stack trace or a detail of what failed. The failure is a real one: a registry row
 * whose sealed credentials this service cannot open (as after SECRET_KEY changed under a database
 * that replicas share), read by every call that talks to that registry. Its error is not one of
 * the catalogue's, so nothing but the mask stands between it and the client.
 */
describe('a non-domain error in a resolver: "Unexpected error." on every door, the stack in the log', () => {
  let t: TestApp;
  let registry: number;
  const lines: LogLine[] = [];

  beforeAll(async () => {
    const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) });
    t = await startTestApp({ LEGACY_UI_PORT: '1' }, { log });
    const created = await t.request<Identified>('POST', '/registries', {
      body: { name: 'sealed', endpoint_url: 'https://127.0.0.1:9', username: 'someone', password: 'the-password' },
    });
    expect(created.status).toBe(201);
    registry = created.body.id;
    // A sealed text of the right shape that no key opens (the authentication tag is wrong).
    const zeros = (n: number) => Buffer.alloc(n).toString('base64');
    await t.app.orm.em
      .getConnection()
      .execute('update registries set sealed_secret = ? where id = ?', [`v1:${zeros(12)}:${zeros(16)}:${zeros(24)}`, registry]);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The log lines of unexpected errors since `from`, as the operator reads them. */
  const unexpected = (from: number) => lines.slice(from).filter((l) => l.msg === 'unexpected error');

  /** Nothing of the failure in what the client gets: no stack frame, no path, no message of the cause. */
  const leaks = (text: string) =>
    ['    at ', '.ts:', '/work/', 'node_modules', 'decipher', 'Unsupported state', 'sealed', 'the-password'].filter((s) =>
      text.includes(s),
    );

  test('REST: 500 with exactly the masked body; the log line has the error and its stack', async () => {
    const from = lines.length;
    const res = await t.request('GET', `/repositories/team/web?registry_id=${registry}`);
    expect({ status: res.status, body: res.body, leaks: leaks(res.text) }).toEqual({ status: 500, body: UNEXPECTED, leaks: [] });
    const logged = unexpected(from);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ level: 50, err: { type: 'Error', message: expect.any(String) as unknown } });
    // The stack names where it failed: the secret box's decryption, below the registry's service.
    expect(logged[0].err!.stack).toMatch(/^Error: .*\n\s+at .*secret-box\.ts:\d+:\d+/s);
    expect(logged[0].err!.stack).toContain('registry.service.ts');
  });

  test('GraphQL: the same message, masked, with no extensions of the cause; logged with its stack', async () => {
    const from = lines.length;
    const res = await t.graphql('query($id: Int!) { repository(name: "team/web", registryId: $id) { id tags } }', { id: registry });
    expect({ status: res.status, body: res.body, leaks: leaks(res.text) }).toEqual({
      status: 500,
      body: {
        data: null,
        errors: [
          {
            message: 'Unexpected error.',
            locations: [{ line: 1, column: 20 }],
            path: ['repository'],
            extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500, fields: [] },
          },
        ],
      },
      leaks: [],
    });
    const logged = unexpected(from);
    expect(logged).toHaveLength(1);
    expect(logged[0].err!.stack).toMatch(/secret-box\.ts:\d+:\d+/);
  });

  test('the legacy UI listener: the same 500 body (no form errors), logged with its stack', async () => {
    const from = lines.length;
    const res = await request(`${t.legacyUrl}/repositories/team/web?registry_id=${registry}`, { headers: { accept: 'application/json' } });
    const text = await res.body.text();
    expect({ status: res.statusCode, body: JSON.parse(text) as unknown, leaks: leaks(text) }).toEqual({
      status: 500,
      body: UNEXPECTED,
      leaks: [],
    });
    expect(unexpected(from).map((l) => /secret-box\.ts:\d+:\d+/.test(l.err?.stack ?? ''))).toEqual([true]);
  });
});
