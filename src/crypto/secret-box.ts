import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const OPENED_MAX = 1024;

/** AES-256-GCM, keyed by SECRET_KEY or else DATA_DIR/secret-key made on first start: replicas must share SECRET_KEY. */
export class SecretBox {
  private readonly key: Buffer;
  // An agent's token is opened on every request to its target; agent clients hold plain texts anyway.
  private readonly opened = new Map<string, string>();

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  static fromConfig(secretKey: string | undefined, dataDir: string): SecretBox {
    if (secretKey) return new SecretBox(secretKey);
    const file = path.join(dataDir, 'secret-key');
    if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600 });
    return new SecretBox(readFileSync(file, 'utf8').trim());
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64'), cipher.getAuthTag().toString('base64'), body.toString('base64')].join('.');
  }

  open(sealed: string): string {
    const known = this.opened.get(sealed);
    if (known !== undefined) return known;
    const plain = this.decrypt(sealed);
    if (this.opened.size >= OPENED_MAX) this.opened.delete(this.opened.keys().next().value!);
    this.opened.set(sealed, plain);
    return plain;
  }

  private decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64'));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
  }
}
