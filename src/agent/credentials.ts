import { X509Certificate, createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { createSelfSigned } from './self-signed';

/**
 * Made on first start, kept in the data dir (0600). The token carries all of it:
 * base64 of `<public_url>|<username>|<password>|<PEM certificate>`.
 */
export interface AgentCredentials {
  username: string;
  password: string;
  keyPem: string;
  certPem: string;
  token: string;
}

const KEY_FILE = 'tls-key.pem';
const CERT_FILE = 'tls-cert.pem';
const LOGIN_FILE = 'credentials.json';
const TOKEN_FILE = 'token';
const CERT_DAYS = 3650;
const RENEW_BEFORE_MS = 30 * 86_400_000;

interface Log {
  info(message: string): void;
}

export function encodeToken(publicUrl: string, username: string, password: string, certPem: string): string {
  return Buffer.from(`${publicUrl}|${username}|${password}|${certPem}`, 'utf8').toString('base64');
}

/** The certificate is remade when it no longer names the URL's host or is about to expire; the token is rewritten every start. */
export async function loadOrCreateCredentials(dataDir: string, publicUrl: string, log: Log): Promise<AgentCredentials> {
  await mkdir(dataDir, { recursive: true });
  let login = await readLogin(dataDir);
  if (!login) {
    login = { username: randomUUID(), password: newPassword() };
    await writeSecret(path.join(dataDir, LOGIN_FILE), JSON.stringify(login));
    log.info('generated agent credentials');
  }
  const publicHost = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  let keyPem = await readIfExists(path.join(dataDir, KEY_FILE));
  let certPem = await readIfExists(path.join(dataDir, CERT_FILE));
  if (!keyPem || !certPem || !certificateFits(certPem, publicHost)) {
    const names = ['localhost', '127.0.0.1', '::1', hostname(), publicHost];
    ({ keyPem, certPem } = createSelfSigned(publicHost, names, CERT_DAYS));
    await writeSecret(path.join(dataDir, KEY_FILE), keyPem);
    await writeSecret(path.join(dataDir, CERT_FILE), certPem);
    log.info(`generated a self-signed TLS certificate for ${publicHost}`);
  }
  const token = encodeToken(publicUrl, login.username, login.password, certPem);
  await writeSecret(path.join(dataDir, TOKEN_FILE), `${token}\n`);
  return { ...login, keyPem, certPem, token };
}

/** Replaces the password (the username and certificate stay) and rewrites the token. */
export async function rotateCredentials(dataDir: string, publicUrl: string, log: Log): Promise<AgentCredentials> {
  const current = await loadOrCreateCredentials(dataDir, publicUrl, log);
  await writeSecret(path.join(dataDir, LOGIN_FILE), JSON.stringify({ username: current.username, password: newPassword() }));
  log.info('rotated the agent password');
  return loadOrCreateCredentials(dataDir, publicUrl, log);
}

/** The login file is re-read when its mtime changes (at most once a second), so a rotation reaches a running agent. */
export class BasicAuthChecker {
  private expected: Buffer;
  private mtimeMs = 0;
  private checkedAt = 0;

  constructor(
    private readonly dataDir: string,
    login: { username: string; password: string },
  ) {
    this.expected = digest(`${login.username}:${login.password}`);
  }

  async check(authorization: string | undefined): Promise<boolean> {
    await this.refresh();
    const match = /^Basic\s+(\S+)\s*$/i.exec(authorization ?? '');
    const given = digest(match ? Buffer.from(match[1], 'base64').toString('utf8') : '');
    // Equal-length digests, so the comparison time does not depend on the secret.
    return timingSafeEqual(given, this.expected);
  }

  private async refresh(): Promise<void> {
    const now = Date.now();
    if (now - this.checkedAt < 1000) return;
    this.checkedAt = now;
    const info = await stat(path.join(this.dataDir, LOGIN_FILE)).catch(() => undefined);
    if (!info || info.mtimeMs === this.mtimeMs) return;
    const login = await readLogin(this.dataDir);
    if (!login) return;
    this.mtimeMs = info.mtimeMs;
    this.expected = digest(`${login.username}:${login.password}`);
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function newPassword(): string {
  return randomBytes(32).toString('base64url');
}

function certificateFits(certPem: string, host: string): boolean {
  try {
    const cert = new X509Certificate(certPem);
    const fresh = new Date(cert.validTo).getTime() - Date.now() > RENEW_BEFORE_MS;
    const names = /^[\d.]+$|:/.test(host) ? cert.checkIP(host) : cert.checkHost(host);
    return fresh && names !== undefined;
  } catch {
    return false;
  }
}

async function readLogin(dataDir: string): Promise<{ username: string; password: string } | undefined> {
  const text = await readIfExists(path.join(dataDir, LOGIN_FILE));
  if (!text) return undefined;
  const parsed = JSON.parse(text) as { username?: unknown; password?: unknown };
  if (typeof parsed.username !== 'string' || typeof parsed.password !== 'string') return undefined;
  return { username: parsed.username, password: parsed.password };
}

async function readIfExists(file: string): Promise<string | undefined> {
  return existsSync(file) ? readFile(file, 'utf8') : undefined;
}

/** Written beside and renamed over, so a crash never leaves half a key; 0600 either way. */
async function writeSecret(file: string, content: string): Promise<void> {
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}
