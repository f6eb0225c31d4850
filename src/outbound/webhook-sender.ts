import { createHmac } from 'node:crypto';
import { request } from 'undici';
import type { OutboundPolicy } from '../catalog/outbound-policy';
import { OutboundRefusedError } from '../catalog/outbound-policy';

export interface SendResult {
  /** Null when there was no answer. */
  status: number | null;
  durationMs: number;
  /** The first KB of the answer. */
  excerpt: string | null;
  error: string | null;
}

const MAX_REDIRECTS = 3;
const EXCERPT_BYTES = 1024;

// The timestamp is signed with the body, so a captured delivery cannot be replayed later with a fresh
// timestamp (receivers refuse old ones).
export function signature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** A redirect is followed only where the outbound policy allows, with the same POST. */
export async function sendWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  timeoutMs: number,
): Promise<SendResult> {
  const started = performance.now();
  const done = (status: number | null, excerpt: string | null, error: string | null): SendResult => ({
    status,
    excerpt,
    error,
    durationMs: Math.round(performance.now() - started),
  });
  let current = new URL(url);
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    for (let hop = 0; ; hop++) {
      if (current.protocol !== 'http:' && current.protocol !== 'https:') return done(null, null, `redirected to a ${current.protocol} URL`);
      policy.assertUrl(current);
      const response = await request(current, {
        method: 'POST',
        headers,
        body,
        dispatcher: policy.dispatcher,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        signal,
      });
      const location = response.headers.location;
      if (response.statusCode >= 300 && response.statusCode < 400 && location) {
        await response.body.dump();
        if (hop >= MAX_REDIRECTS) return done(response.statusCode, null, 'too many redirects');
        current = new URL(String(location), current);
        continue;
      }
      return done(response.statusCode, await excerptOf(response.body), null);
    }
  } catch (error) {
    return done(null, null, describe(error, signal, timeoutMs));
  }
}

async function excerptOf(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= EXCERPT_BYTES) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8');
}

function describe(error: unknown, signal: AbortSignal, timeoutMs: number): string {
  if (signal.aborted) return `no answer within ${timeoutMs} ms`;
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    if (current instanceof OutboundRefusedError || (current as { code?: string }).code === 'EOUTBOUNDREFUSED')
      return 'refused by the outbound policy (link-local, metadata or, unless allowed, private address)';
    current = (current as { cause?: unknown }).cause;
  }
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /TIMEOUT/.test(code)) return `no answer within ${timeoutMs} ms`;
  return `cannot be reached${typeof code === 'string' ? ` (${code})` : ''}`;
}
