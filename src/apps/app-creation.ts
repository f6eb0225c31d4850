import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateDefinition } from '../catalog/template-definition';
import { imageReference } from '../catalog/registry-client';
import type { RegistryService } from '../catalog/registry.service';
import { applyImageOverrides } from '../catalog/image-overrides';
import { bareTemplate, templateFromStored } from '../catalog/template-shape';
import { serviceFields } from './service-image';
import { bareImage, type OverrideImage } from '../parts/image';
import type { TemplateService } from '../catalog/template.service';
import { referencedNames } from '../parts/validator';
import { validateTemplate } from '../catalog/template-file';
import { BadRequestError, ValidationError } from '../errors';
import { App, AppCategory, Service, ServiceLink, SharedVolume } from './app.entity';
import { loadComposeApp, type ComposeApp } from './compose/compose-app';
import { dependencyOrder } from './dependency-order';
import { sanitizeName, uniqueName } from '../parts/names';
import type { ServiceOptions } from './service-options';

export interface CreateAppInput {
  templateId?: number | null;
  composeYaml?: string | null;
  image?: string | null;
  registryId?: number | null;
  /** The app's name; default the compose project's `name:`, else the template's. */
  name?: string | null;
  /** Overrides of the template's images (with templateId), merged as a deployment's are. */
  imageOverrides?: readonly OverrideImage[] | null;
  /** Values for the compose file's `${VAR}` substitutions. */
  environment?: unknown;
  profiles?: string[] | null;
  /** A compose file of a template repo: the repo's id, and the file's path in it. */
  composeRepoId?: number | null;
  composeFile?: string | null;
}

/** From the first of `template_id`, `compose_yaml` and `image` given; none is a 400. */
export async function appSource(
  input: CreateAppInput,
  templates: TemplateService,
  registries: RegistryService,
): Promise<{ definition: TemplateDefinition; from: string; extras?: AppExtras; builds?: ComposeApp['builds'] }> {
  if (input.templateId != null) {
    const stored = templateFromStored(await templates.get(input.templateId));
    const definition = input.imageOverrides?.length ? applyImageOverrides(stored, input.imageOverrides) : stored;
    return { definition, from: `Template: ${definition.name}`, extras: { name: input.name } };
  }
  if (input.imageOverrides?.length)
    throw new ValidationError('imageOverrides apply to an app made from a template (templateId)', ['image_overrides']);
  if (input.composeYaml != null) {
    const compose = loadComposeApp(input.composeYaml, { environment: environmentMap(input.environment), profiles: input.profiles ?? [] });
    const from = compose.name ? `Compose: ${compose.name}` : `Template: ${compose.definition.name}`;
    return {
      definition: compose.definition,
      from,
      extras: { name: input.name, warnings: compose.warnings, options: compose.options },
      // Only git contexts: a file given inline has no directory.
      builds: compose.builds,
    };
  }
  if (input.image != null && input.image.trim() !== '') {
    const image = input.image.trim();
    const registry = input.registryId != null ? await registries.get(input.registryId) : null;
    const name = `${image}_image`;
    // As the original: the image reference is the service name (sanitised: tutum_wordpress_latest).
    const definition = bareTemplate(name, [bareImage(image, imageReference(registry, image))]);
    return { definition, from: `Template: ${name}`, extras: { name: input.name } };
  }
  throw new BadRequestError('give template_id, compose_yaml or image', ['template_id']);
}

/** Flushes the app and its categories but not its services; links and volumes_from resolve by image name. */
export async function buildApp(em: EntityManager, def: TemplateDefinition, from: string, extras: AppExtras = {}): Promise<App> {
  // Relative host paths have no directory to resolve against on the server: refused for an app.
  validateTemplate(def, { appVolumes: true });
  const byName = new Map(def.images.map((image) => [image.name.trim(), image]));
  dependencyOrder(
    def.images.map((i) => i.name.trim()),
    (name) => {
      const image = byName.get(name);
      return image ? referencedNames(image) : [];
    },
  );

  const wanted = (extras.name?.trim() || def.name).replace(/\//g, '_');
  const appName = uniqueName(wanted, await namesLike(em, App, wanted));
  const app = em.create(App, {
    name: appName,
    from,
    documentation: def.documentation,
    description: def.description,
    keywords: def.keywords,
    type: def.type,
    errors: [],
    warnings: (extras.warnings ?? []).map((message) => ({ message })),
  });
  const categories = new Map<string, AppCategory>();
  for (const image of def.images) {
    const name = image.category?.trim();
    if (name && !categories.has(name)) {
      categories.set(name, em.create(AppCategory, { app, name, position: categories.size }));
    }
  }
  await em.flush();

  // Names are unique within the app only: each service is reachable by its own name inside it.
  const services = new Map<string, Service>();
  const taken = new Set<string>();
  for (const [position, image] of def.images.entries()) {
    const name = uniqueName(sanitizeName(image.name.trim()), taken);
    taken.add(name);
    const category = image.category?.trim() ? categories.get(image.category.trim()) : undefined;
    services.set(
      image.name.trim(),
      em.create(Service, {
        app,
        position,
        name,
        internalName: name,
        ...serviceFields(image),
        categories: category ? [{ category_id: category.id, position: 0 }] : [],
        defaultExposedPorts: [],
        lastError: null,
        startingAt: null,
        options: extras.options?.get(image.name.trim()) ?? {},
        buildLog: [],
      }),
    );
  }
  for (const image of def.images) {
    const from = services.get(image.name.trim())!;
    for (const link of image.links) em.create(ServiceLink, { from, to: services.get(link.service.trim())!, alias: link.alias.trim() });
    for (const shared of image.volumes_from)
      em.create(SharedVolume, { mountedOn: from, exportedFrom: services.get(shared.service.trim())! });
  }
  return app;
}

export function environmentMap(value: unknown): Record<string, string> {
  if (value == null) return {};
  const bad = () => new ValidationError('environment must be a mapping of variable names to values', ['environment']);
  if (typeof value !== 'object' || Array.isArray(value)) throw bad();
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => {
      if (!['string', 'number', 'boolean'].includes(typeof v)) throw bad();
      return [k, String(v)];
    }),
  );
}

export interface AppExtras {
  name?: string | null;
  /** Shown with the app's errors: what was not honoured as written. */
  warnings?: string[];
  /** Per image name: compose keys without a template field. */
  options?: Map<string, ServiceOptions>;
}

/** A superset of the exact clashes `uniqueName` looks for. */
export async function namesLike(em: EntityManager, entity: typeof App | typeof Service, prefix: string): Promise<string[]> {
  const pattern = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await em.find(entity as typeof Service, { name: { $like: pattern } }, { fields: ['name'] });
  return rows.map((row) => row.name);
}
