import { UnreachableError, UpstreamTimeoutError } from '../errors';

/** After the first miss a registry is left alone this long, doubling on each miss up to the cap. */
export const OUTAGE_FIRST_MS = 15_000;
// Short enough that other replicas, which do not hear of an edit, ask a mended registry again soon.
export const OUTAGE_CAP_MS = 60_000;

interface Outage {
  misses: number;
  until: number;
  /** One search asks again once `until` has passed; the others keep skipping until it answers. */
  probing: boolean;
}

export type Admission = { ask: true } | { ask: false; until: number };

/**
 * Registries searched alongside the templates that did not answer (unreachable or timed out). One
 * such registry held every search for its whole timeout; now searches skip it for a while and say so,
 * and one search at a time finds out whether it is back. Process-wide: every request shares it.
 */
export class RegistryOutages {
  private readonly outages = new Map<number, Outage>();

  constructor(private readonly now: () => number = Date.now) {}

  admit(registryId: number): Admission {
    const outage = this.outages.get(registryId);
    if (!outage) return { ask: true };
    if (outage.probing || this.now() < outage.until) return { ask: false, until: outage.until };
    outage.probing = true;
    return { ask: true };
  }

  /** Only a registry nothing reached counts as out; one that answered with an error still answers. */
  failed(registryId: number, error: unknown): void {
    if (!(error instanceof UnreachableError || error instanceof UpstreamTimeoutError)) return this.forget(registryId);
    const misses = (this.outages.get(registryId)?.misses ?? 0) + 1;
    const pause = Math.min(OUTAGE_FIRST_MS * 2 ** (misses - 1), OUTAGE_CAP_MS);
    this.outages.set(registryId, { misses, until: this.now() + pause, probing: false });
  }

  /** It answered (whatever the answer), or its endpoint or credentials changed: searches ask it again. */
  forget(registryId: number): void {
    this.outages.delete(registryId);
  }
}
