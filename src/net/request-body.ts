import type { IncomingMessage, ServerResponse } from 'node:http';
import { BadRequestError, PayloadTooLargeError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Node's clients read an answer only once their body is written: a refused body is drained up to this first. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

export function defaultTooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(`the body is larger than ${limit} bytes`);
}

export async function readBody(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
  tooLarge: (limit: number) => Error = defaultTooLarge,
): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw tooLarge(limit);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** An empty body is no body; anything else must be JSON. */
export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new BadRequestError(`malformed JSON${jsonErrorPosition(error)}`);
  }
}

/** Not the message: V8 quotes the text in it, and no answer repeats what a request carried. */
export function jsonErrorPosition(error: unknown): string {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '')?.[1];
  return position === undefined ? '' : ` at position ${position}`;
}

/** A body past DRAIN_MAX_BYTES is left unread and the connection closes after the answer. */
export async function drainRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.complete || req.destroyed) return;
  let size = 0;
  const drained = await new Promise<boolean>((resolve) => {
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > DRAIN_MAX_BYTES) done(false);
    };
    const done = (all: boolean) => {
      req.off('data', onData).off('end', onEnd).off('close', onClose);
      resolve(all);
    };
    const onEnd = () => done(true);
    const onClose = () => done(req.complete);
    req.on('data', onData).once('end', onEnd).once('close', onClose);
    req.resume();
  });
  if (!drained) {
    req.pause();
    res.shouldKeepAlive = false;
  }
}
