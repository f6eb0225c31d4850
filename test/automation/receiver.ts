import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  json: { id: string; type: string; occurredAt: string; data: Record<string, unknown> };
  /** The signature checked as the README's receiver checks it. */
  verified: boolean;
}

/** How the receiver answers the n-th request (0-based): a status and body, or 'hang' (never answers). */
export type Behaviour = (n: number, received: Received) => { status: number; body?: string; headers?: Record<string, string> } | 'hang';

/**
 * A real webhook receiver on a loopback port: records every request, checks its signature the way
 * the README shows (HMAC-SHA256 over `<timestamp>.<body>`, compared in constant time).
 */
export class TestReceiver {
  readonly received: Received[] = [];
  secret = '';
  private readonly hanging: ServerResponse[] = [];
  private waiters: (() => void)[] = [];
  private constructor(
    private readonly server: Server,
    public behaviour: Behaviour,
  ) {}

  static async start(behaviour: Behaviour = () => ({ status: 200, body: 'ok' })): Promise<TestReceiver> {
    const holder: { receiver?: TestReceiver } = {};
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => holder.receiver!.handle(req.headers, Buffer.concat(chunks).toString('utf8'), res));
    });
    const receiver = (holder.receiver = new TestReceiver(server, behaviour));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return receiver;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hook`;
  }

  /** Resolves once `check` holds for what was received (re-checked on every request). */
  async until(check: (received: Received[]) => boolean, what: string, timeoutMs = 60_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check(this.received)) {
      if (Date.now() > deadline) throw new Error(`receiver: ${what} not within ${timeoutMs} ms; got ${this.received.length} requests`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(headers: IncomingHttpHeaders, body: string, res: ServerResponse): void {
    let json: Received['json'];
    try {
      json = JSON.parse(body) as Received['json'];
    } catch {
      json = { id: '', type: '', occurredAt: '', data: {} };
    }
    const received: Received = { headers, body, json, verified: verify(this.secret, headers, body) };
    const n = this.received.length;
    this.received.push(received);
    const answer = this.behaviour(n, received);
    if (answer === 'hang') this.hanging.push(res);
    else res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers }).end(answer.body ?? '');
    for (const wake of this.waiters.splice(0)) wake();
  }
}

/** The README's receiver check, as a receiver would write it. */
export function verify(secret: string, headers: IncomingHttpHeaders, body: string): boolean {
  const timestamp = String(headers['x-platform-timestamp'] ?? '');
  const given = String(headers['x-platform-signature'] ?? '');
  if (!/^\d+$/.test(timestamp) || Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) return false;
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  return expected.length === given.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
