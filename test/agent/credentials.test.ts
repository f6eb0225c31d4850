import { expect } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { rotateCredentials } from '../../src/agent/credentials';
import { decodeAuthBlob } from '../../src/targets/auth-blob';
import { until } from '../events/clients';
import { createTestDatabase } from '../helpers/db';
import { agentRequest, startAgent } from './agent-harness';

const quiet = { info: () => undefined };

describe('agent credentials and token', () => {
  test('first start writes a 0600 token that decodes to 4 parts; a second start reuses it; rotation changes the password', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'agent-cred-'));
    const database = await createTestDatabase('agent');
    try {
      const first = await startAgent({ dataDir, database });
      const tokenText = await readFile(path.join(dataDir, 'token'), 'utf8');
      expect(tokenText.trim()).toBe(first.token);
      for (const file of ['token', 'credentials.json', 'tls-key.pem', 'tls-cert.pem']) {
        expect((await stat(path.join(dataDir, file))).mode & 0o777).toBe(0o600);
      }
      expect(Buffer.from(first.token, 'base64').toString('utf8').split('|')).toHaveLength(4);
      const blob = decodeAuthBlob(tokenText);
      expect(blob).toEqual({
        endpointUrl: first.config.publicUrl,
        username: expect.stringMatching(/^[0-9a-f-]{36}$/),
        password: first.app.credentials.password,
        certificatePem: first.app.credentials.certPem,
      });
      const cert = new X509Certificate(blob.certificatePem);
      expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(cert.checkHost('localhost')).toBe('localhost');
      expect(cert.publicKey.asymmetricKeyType).toBe('ec');
      expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');

      // A running agent takes the rotated password (it looks at the file at most once a second).
      const oldAuth = first.auth;
      const rotated = await rotateCredentials(dataDir, first.config.publicUrl, quiet);
      expect(rotated.username).toBe(first.app.credentials.username);
      expect(rotated.password).not.toBe(first.app.credentials.password);
      expect(rotated.certPem).toBe(first.app.credentials.certPem);
      expect((await readFile(path.join(dataDir, 'token'), 'utf8')).trim()).toBe(rotated.token);
      const newAuth = `Basic ${Buffer.from(`${rotated.username}:${rotated.password}`).toString('base64')}`;
      await until(
        async () => (await agentRequest(first, 'GET', '/deployments', { auth: newAuth })).status === 200,
        'the agent to take the rotated password',
      );
      expect((await agentRequest(first, 'GET', '/deployments', { auth: oldAuth })).status).toBe(401);
      expect((await agentRequest(first, 'GET', '/deployments', { auth: newAuth })).status).toBe(200);
      await first.close();

      const second = await startAgent({ dataDir, database, env: { AGENT_PORT: String(new URL(first.config.publicUrl).port) } });
      try {
        expect(second.app.credentials.username).toBe(rotated.username);
        expect(second.app.credentials.password).toBe(rotated.password);
        expect(second.app.credentials.certPem).toBe(first.app.credentials.certPem);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
