export interface RegistryImage {
  name: string;
  tags: string[];
  description: string | null;
  isOfficial: boolean | null;
  isTrusted: boolean | null;
  starCount: number | null;
}

/** The images, or why the registry could not be searched this way (the caller may fall back). */
export type StepResult = { ok: true; images: RegistryImage[] } | { ok: false; error: Error };

export function matches(name: string, terms: string[]): boolean {
  const lower = name.toLowerCase();
  return terms.some((term) => lower.includes(term));
}

/** Results in the items' order. */
export async function mapLimit<T, R>(items: T[], concurrency: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let index = 0;
  const worker = async (): Promise<void> => {
    while (index < items.length) {
      const i = index++;
      results[i] = await run(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}
