/**
 * Reading an upstream's answer (agent, engine) with a ceiling: past `maxBytes` the stream is
 * destroyed (the connection goes, the rest is never buffered) and `ResponseTooLargeError` is
 * thrown for the caller to turn into its own 502. undici's bodyTimeout bounds the gaps between
 * chunks, not the whole body; callers pass a signal for the overall deadline.
 */
export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

export interface ReadableBody extends AsyncIterable<unknown> {
  destroy(error?: Error): unknown;
}

export async function readLimited(body: ReadableBody, maxBytes: number, declaredLength?: string | string[]): Promise<Buffer> {
  const declared = Number(Array.isArray(declaredLength) ? declaredLength[0] : declaredLength);
  if (Number.isFinite(declared) && declared > maxBytes) {
    body.destroy();
    throw new ResponseTooLargeError(maxBytes);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) {
      body.destroy();
      throw new ResponseTooLargeError(maxBytes);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
}

/** A signal that aborts after `ms`, or when `other` does. */
export function deadlineSignal(ms: number, other?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return other ? AbortSignal.any([timeout, other]) : timeout;
}
