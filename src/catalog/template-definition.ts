import type { ImageDefinition } from '../parts/image';

/**
 * A template as the domain sees it: what a `.pmx` file holds once parsed and normalised
 * (docs/original-system.md "Template file format"). Storage and GraphQL shapes are built from this.
 */
export interface TemplateDefinition {
  name: string;
  description: string | null;
  /** One comma-separated string, as in the original (`wordpress, mysql`). */
  keywords: string | null;
  /** A /types name (see template-types.ts), normalised: never blank. */
  type: string;
  documentation: string | null;
  /** Stored, never serialized. */
  authors: string[];
  /** The template repo the template was loaded from; not part of the file form. */
  source: string | null;
  images: ImageDefinition[];
}
