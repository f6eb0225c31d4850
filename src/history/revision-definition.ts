import { stringify } from 'yaml';
import { imageFileForm, type ImageDefinition, type OverrideImage } from '../parts/image';
import { isSecretVariable, SECRET_MASK } from '../parts/secrets';

/** One container's definition as a revision keeps it: the image's file form, plus what an app's service adds. */
export interface RevisionImage extends ImageDefinition {
  /** An app's service row when the revision was made. */
  serviceId?: number;
  /** The template image's name before it was sanitised into the service's name. */
  imageName?: string | null;
  /** An app's compose keys (healthcheck, networks, depends_on, replicas, …). */
  options?: Record<string, unknown>;
}

/** What was deployed, rendered: the template as it was (with the overrides merged) and what was asked of it. */
export interface RevisionDefinition {
  name: string;
  /** A deployment's template, when it came from one. */
  templateId?: number | null;
  description?: string | null;
  keywords?: string | null;
  type?: string | null;
  documentation?: string | null;
  images: RevisionImage[];
  /** A deployment's (or an app's) overrides as given, already merged into `images`. */
  overrides?: OverrideImage[];
}

/** An image as it was resolved when its revision was deployed. */
export interface PinnedImage {
  /** The image's (service's) name in the definition. */
  name: string;
  /** The reference as written (usually a tag). */
  source: string;
  /** The manifest digest (`sha256:…`), or the image id of an image no registry knows; null when it could not be resolved. */
  digest: string | null;
  /** What a rollback runs: `repo@sha256:…`, or the image id; null when there is nothing to pin. */
  reference: string | null;
  /** Why there is no digest. */
  note?: string | null;
}

/** Secret values replaced by the mask: what a reader of the history sees. */
export function maskedDefinition(definition: RevisionDefinition): RevisionDefinition {
  return {
    ...definition,
    images: definition.images.map(maskedImage),
    overrides: definition.overrides?.map((image) =>
      image.environment ? { ...image, environment: image.environment.map(maskedVariable) } : image,
    ),
  };
}

function maskedImage(image: RevisionImage): RevisionImage {
  return { ...image, environment: (image.environment ?? []).map(maskedVariable) };
}

function maskedVariable<T extends { variable: string; value?: string }>(entry: T): T {
  return isSecretVariable(entry.variable) ? { ...entry, value: SECRET_MASK } : entry;
}

/** The definition as YAML (the `.pmx` file form of each image, its digest and an app's compose keys), secrets masked. */
export function definitionYaml(definition: RevisionDefinition | null, images: readonly PinnedImage[]): string {
  if (!definition) return '# not known: made before this deployment had a history\n';
  const masked = maskedDefinition(definition);
  const digests = new Map(images.map((image) => [image.name, image]));
  const document: Record<string, unknown> = { name: masked.name };
  if (masked.templateId != null) document.template_id = masked.templateId;
  document.images = masked.images.map((image) => {
    const form: Record<string, unknown> = imageFileForm(image);
    const pinned = digests.get(image.name);
    if (pinned) form.digest = pinned.digest ?? `unknown${pinned.note ? ` (${pinned.note})` : ''}`;
    if (image.options && Object.keys(image.options).length) form.options = image.options;
    return form;
  });
  if (masked.overrides?.length) document.overrides = masked.overrides;
  return stringify(document, { sortMapEntries: false, lineWidth: 0 });
}
