import { createTwoFilesPatch } from 'diff';
import { IMAGE_KEYS } from '../parts/image';
import { isSecretVariable } from '../parts/secrets';
import { definitionYaml, type PinnedImage, type RevisionDefinition, type RevisionImage } from './revision-definition';

/** One field of one image, old → new; a secret's values are never given, only that it changed. */
export interface FieldChange {
  field: string;
  old: unknown;
  new: unknown;
  secret: boolean;
}

export interface ImageChange {
  image: string;
  change: 'added' | 'removed' | 'changed';
  fields: FieldChange[];
}

export interface RevisionSide {
  number: number;
  definition: RevisionDefinition | null;
  images: readonly PinnedImage[];
}

export interface RevisionDiff {
  from: number;
  to: number;
  images: ImageChange[];
  /** The unified diff of the two rendered YAML documents. */
  unified: string;
}

const COMPARED = IMAGE_KEYS.filter((key) => key !== 'name' && key !== 'environment');

/** Per image (matched by name) and field, then as a unified diff of the rendered YAML. */
export function revisionDiff(from: RevisionSide, to: RevisionSide): RevisionDiff {
  const before = imagesOf(from);
  const after = imagesOf(to);
  const names = [...new Set([...before.keys(), ...after.keys()])];
  const images: ImageChange[] = [];
  for (const name of names) {
    const old = before.get(name);
    const next = after.get(name);
    const fields = fieldChanges(old, next);
    if (!old) images.push({ image: name, change: 'added', fields });
    else if (!next) images.push({ image: name, change: 'removed', fields });
    else if (fields.length) images.push({ image: name, change: 'changed', fields });
  }
  const unified = createTwoFilesPatch(
    `revision ${from.number}`,
    `revision ${to.number}`,
    definitionYaml(from.definition, from.images),
    definitionYaml(to.definition, to.images),
    undefined,
    undefined,
    { context: 3 },
  );
  return { from: from.number, to: to.number, images, unified };
}

interface Side {
  image: RevisionImage;
  pinned: PinnedImage | undefined;
}

function imagesOf(side: RevisionSide): Map<string, Side> {
  const pinned = new Map(side.images.map((image) => [image.name, image]));
  return new Map((side.definition?.images ?? []).map((image) => [image.name, { image, pinned: pinned.get(image.name) }]));
}

function fieldChanges(old: Side | undefined, next: Side | undefined): FieldChange[] {
  const changes: FieldChange[] = [];
  const push = (field: string, a: unknown, b: unknown, secret = false) => {
    if (same(a, b)) return;
    changes.push(secret ? { field, old: null, new: null, secret } : { field, old: a ?? null, new: b ?? null, secret });
  };
  push('digest', old?.pinned?.digest, next?.pinned?.digest);
  for (const key of COMPARED) push(key, empty(old?.image[key]), empty(next?.image[key]));
  const variables = new Map<string, [string | undefined, string | undefined]>();
  for (const entry of old?.image.environment ?? []) variables.set(entry.variable, [entry.value, undefined]);
  for (const entry of next?.image.environment ?? []) variables.set(entry.variable, [variables.get(entry.variable)?.[0], entry.value]);
  for (const [variable, [a, b]] of variables) push(`environment.${variable}`, a, b, isSecretVariable(variable));
  const options = new Set([...Object.keys(old?.image.options ?? {}), ...Object.keys(next?.image.options ?? {})]);
  for (const key of options) push(`options.${key}`, old?.image.options?.[key], next?.image.options?.[key]);
  return changes;
}

/** An empty list, an empty string and nothing read alike: a field left out is not a change. */
function empty(value: unknown): unknown {
  if (value === '' || (Array.isArray(value) && value.length === 0)) return null;
  return value;
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}
