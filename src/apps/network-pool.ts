import type { DockerClient } from '../engines/docker-client';
import { EngineRequestError } from '../engines/engine-errors';
import { ConflictError } from '../errors';
import { formatIp, overlaps, parseCidr } from '../net/cidr';

// Our own pool (APP_NETWORK_POOL): the engine's default pools hold about 30 networks, shared with
// everything on it. Starts racing for a block are told apart by the engine refusing an overlap.
export class NetworkPool {
  private readonly base: number;
  private readonly size: number;
  private readonly blocks: number;

  constructor(
    readonly cidr: string,
    readonly prefix: number,
  ) {
    const [network, bits] = parseCidr(cidr);
    if (prefix < bits || prefix > 30) throw new Error(`APP_NETWORK_PREFIX /${prefix} does not fit in ${cidr}`);
    this.base = network;
    this.size = 2 ** (32 - prefix);
    this.blocks = 2 ** (prefix - bits);
  }

  private queue: Promise<unknown> = Promise.resolve();

  /** One at a time in this process: they would only race each other for the same block. */
  create(docker: DockerClient, name: string, labels: Record<string, string>, options: { internal?: boolean }): Promise<void> {
    const run = this.queue.then(() => this.createNow(docker, name, labels, options));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async createNow(
    docker: DockerClient,
    name: string,
    labels: Record<string, string>,
    options: { internal?: boolean },
  ): Promise<void> {
    const used = (await docker.listNetworks()).flatMap((n) =>
      ((n.IPAM as { Config?: { Subnet?: string }[] } | undefined)?.Config ?? [])
        .map((c) => c.Subnet)
        .filter((s): s is string => !!s && !s.includes(':'))
        .map(parseCidr),
    );
    for (let block = 0; block < this.blocks; block += 1) {
      const start = this.base + block * this.size;
      if (used.some(([net, bits]) => overlaps(start, this.size, net, 2 ** (32 - bits)))) continue;
      try {
        await docker.createNetwork(name, labels, 'bridge', { ...options, subnet: `${formatIp(start)}/${this.prefix}` });
        return;
      } catch (error) {
        // Taken meanwhile by another start: try the next block.
        if (error instanceof EngineRequestError && /overlap/i.test(error.engineMessage)) continue;
        throw error;
      }
    }
    throw new ConflictError(
      `no free /${this.prefix} subnet left in the app network pool ${this.cidr} (APP_NETWORK_POOL) for network ${name}`,
      ['network'],
    );
  }
}
