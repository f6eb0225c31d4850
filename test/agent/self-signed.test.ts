import { expect } from '@jest/globals';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { createSelfSigned } from '../../src/agent/self-signed';

test('a self-signed certificate carries its names, a server key usage, no CA, and its own signature', () => {
  const { certPem, keyPem } = createSelfSigned('agent.example', ['agent.example', '127.0.0.1', '::1', 'agent.example'], 30);
  const cert = new X509Certificate(certPem);
  expect(cert.subject).toBe('CN=agent.example');
  expect(cert.issuer).toBe('CN=agent.example');
  expect(cert.subjectAltName).toBe('DNS:agent.example, IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1');
  expect(cert.ca).toBe(false);
  expect(cert.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
  expect(cert.verify(createPublicKey(keyPem))).toBe(true);
  expect(cert.checkHost('agent.example')).toBe('agent.example');
  expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
  const days = (Date.parse(cert.validTo) - Date.parse(cert.validFrom)) / 86_400_000;
  expect(Math.round(days)).toBe(30);
  // DER integers are minimal and positive: the serial never starts with a zero byte.
  expect(cert.serialNumber).toMatch(/^[4-7][0-9A-F]{31}$/);
});
