export class ResponseTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`the answer is larger than ${maxBytes} bytes`);
  }
}

export interface ReadableBody extends AsyncIterable<unknown> {
  destroy(error?: Error): unknown;
}

/** Destroys the stream past `maxBytes`; undici's bodyTimeout bounds only the gaps, so callers add a deadline signal. */
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

export function deadlineSignal(ms: number, other?: AbortSignal): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  return other ? AbortSignal.any([timeout, other]) : timeout;
}
