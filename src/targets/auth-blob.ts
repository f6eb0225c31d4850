import { X509Certificate } from 'node:crypto';
import { ValidationError } from '../errors';

export interface AuthBlob {
  endpointUrl: string;
  username: string;
  password: string;
  certificatePem: string;
}

/** base64 of `<endpoint_url>|<username>|<password>|<PEM>`, whitespace ignored as installers wrap it. */
export function decodeAuthBlob(blob: string): AuthBlob {
  const compact = String(blob ?? '').replace(/\s+/g, '');
  if (compact === '') throw invalid('The token is empty.');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw invalid('The token is not base64.');
  }
  const text = Buffer.from(compact, 'base64').toString('utf8');
  const parts = text.split('|');
  if (parts.length !== 4) {
    throw invalid(
      `The token has ${parts.length} part${parts.length === 1 ? '' : 's'}; expected 4 separated by "|" (endpoint URL, username, password, certificate).`,
    );
  }
  const [endpoint, username, password, certificate] = parts;
  let url: URL;
  try {
    url = new URL(endpoint.trim());
  } catch {
    throw invalid("The token's endpoint is not a URL.");
  }
  if (url.protocol !== 'https:') throw invalid("The token's endpoint is not an https:// URL.");
  if (!username || !password) throw invalid('The token has an empty username or password.');
  const certificatePem = normalisePem(certificate);
  try {
    new X509Certificate(certificatePem);
  } catch {
    throw invalid("The token's certificate is not a valid PEM X.509 certificate.");
  }
  return { endpointUrl: url.href.replace(/\/+$/, ''), username, password, certificatePem };
}

function invalid(message: string): ValidationError {
  return new ValidationError(message, ['auth_blob']);
}

/** Some tokens were stored with spaces in place of the PEM's line breaks. */
function normalisePem(text: string): string {
  const match = /-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/.exec(text);
  if (!match) return text;
  const body = match[1]
    .replace(/\s+/g, '')
    .replace(/(.{64})/g, '$1\n')
    .trimEnd();
  return `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`;
}
