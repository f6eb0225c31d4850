import { expect } from '@jest/globals';
import { createSelfSigned } from '../../src/agent/self-signed';
import { decodeAuthBlob } from '../../src/targets/auth-blob';

const { certPem } = createSelfSigned('127.0.0.1', ['127.0.0.1', 'localhost'], 30);
const encode = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('decodeAuthBlob', () => {
  test('a good token, wrapped at 76 characters with a trailing newline as installers print it', () => {
    const token = encode(`https://127.0.0.1:3001|user-1|pa55|${certPem}\n`).replace(/(.{76})/g, '$1\n');
    expect(decodeAuthBlob(`${token}\n`)).toEqual({
      endpointUrl: 'https://127.0.0.1:3001',
      username: 'user-1',
      password: 'pa55',
      certificatePem: certPem,
    });
  });

  test('a PEM whose line breaks became spaces still decodes', () => {
    const blob = decodeAuthBlob(encode(`https://agent.example:3001|u|p|${certPem.replace(/\n/g, ' ')}`));
    expect(blob.certificatePem).toBe(certPem);
  });

  test.each([
    [
      '3 parts',
      encode(`https://127.0.0.1:3001|user|${certPem}`),
      'The token has 3 parts; expected 4 separated by "|" (endpoint URL, username, password, certificate).',
    ],
    [
      '5 parts',
      encode(`https://127.0.0.1:3001|a|b|c|${certPem}`),
      'The token has 5 parts; expected 4 separated by "|" (endpoint URL, username, password, certificate).',
    ],
    ['not base64', `https://127.0.0.1:3001|user|pass|${certPem}`, 'The token is not base64.'],
    ['empty', '  \n', 'The token is empty.'],
    ['not https', encode(`http://127.0.0.1:3001|user|pass|${certPem}`), "The token's endpoint is not an https:// URL."],
    ['not a URL', encode(`127.0.0.1:3001x|user|pass|${certPem}`), "The token's endpoint is not a URL."],
    [
      'bad certificate',
      encode('https://127.0.0.1:3001|user|pass|-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n'),
      "The token's certificate is not a valid PEM X.509 certificate.",
    ],
    ['empty password', encode(`https://127.0.0.1:3001|user||${certPem}`), 'The token has an empty username or password.'],
  ])('%s: 422 on auth_blob', (_name, token, message) => {
    expect(() => decodeAuthBlob(token)).toThrow(expect.objectContaining({ httpStatus: 422, fields: ['auth_blob'], message }));
  });
});
