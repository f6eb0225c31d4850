import type { ImageDefinition } from '../parts/image';

export interface TemplateDefinition {
  name: string;
  description: string | null;
  /** One comma-separated string, as in the original. */
  keywords: string | null;
  /** Normalised: never blank. */
  type: string;
  documentation: string | null;
  /** Stored, never serialized. */
  authors: string[];
  /** The template repo it was loaded from; not part of the file form. */
  source: string | null;
  images: ImageDefinition[];
}
