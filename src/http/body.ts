import type { IncomingMessage } from 'node:http';
import { BadRequestError, PayloadTooLargeError } from '../errors';

export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request body up to the limit: 413 past it, without buffering the rest. */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    throw new PayloadTooLargeError(`the body is larger than ${limit} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      req.resume();
      throw new PayloadTooLargeError(`the body is larger than ${limit} bytes`);
    }
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
    throw new BadRequestError(`malformed JSON: ${(error as Error).message}`);
  }
}
