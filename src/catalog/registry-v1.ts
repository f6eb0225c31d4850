import type { RegistrySession } from './registry-session';
import { mapLimit, matches, type RegistryImage, type StepResult } from './registry-image';

interface V1Result {
  name?: unknown;
  description?: unknown;
  star_count?: unknown;
  is_official?: unknown;
  is_trusted?: unknown;
}

// Once per term. Results are kept only when their name contains a term (Docker Hub also matches
// descriptions), so every registry follows the same rule.
export async function searchV1(session: RegistrySession, terms: string[], limit: number): Promise<StepResult> {
  const answers = await mapLimit(terms, 4, async (term) => {
    const query = new URLSearchParams({ q: term, n: String(Math.min(limit, 100)) });
    return session.getJson(`/v1/search?${query}`);
  });
  const failed = answers.find(({ response }) => response.status !== 200);
  if (failed) return { ok: false, error: session.failure(failed.response) };

  const images = new Map<string, RegistryImage>();
  for (const { data } of answers) {
    const results = (data as { results?: unknown } | null)?.results;
    for (const result of (Array.isArray(results) ? results : []) as V1Result[]) {
      if (typeof result?.name !== 'string' || images.has(result.name) || !matches(result.name, terms)) continue;
      images.set(result.name, {
        name: result.name,
        tags: [],
        description: typeof result.description === 'string' ? result.description : null,
        isOfficial: typeof result.is_official === 'boolean' ? result.is_official : null,
        isTrusted: typeof result.is_trusted === 'boolean' ? result.is_trusted : null,
        starCount: typeof result.star_count === 'number' ? result.star_count : null,
      });
    }
  }
  return { ok: true, images: [...images.values()].slice(0, limit) };
}
