import type { EntityManager } from '@mikro-orm/postgresql';
import { classifyRepoName, saveTemplateFile } from '../catalog/repo-source';
import type { TemplateDefinition } from '../catalog/template-definition';
import { serializeTemplateFile, validateTemplate } from '../catalog/template-file';
import { TemplateRepo } from '../catalog/template-repo.entity';
import { normalizeType } from '../catalog/template-types';
import { templateFromStored } from '../catalog/template-shape';
import { serviceImage } from './service-image';
import type { TemplateService } from '../catalog/template.service';
import type { Template } from '../catalog/template.entity';
import type { Config } from '../config';
import { ValidationError } from '../errors';
import type { App, Service } from './app.entity';
import { loadApp } from './app-start';

export interface TemplateMetadata {
  name?: string | null;
  description?: string | null;
  keywords?: string | null;
  /** A list, or one comma-separated string. */
  authors?: unknown;
  type?: string | null;
  documentation?: string | null;
}

export class AppTemplateService {
  constructor(
    private readonly em: EntityManager,
    private readonly templates: TemplateService,
    private readonly config: Pick<Config, 'dataDir' | 'gitTimeoutMs' | 'githubUrl' | 'githubToken' | 'templateRepoRoots'>,
    private readonly repoCacheDir: string,
  ) {}

  async definition(appId: number, meta: TemplateMetadata): Promise<TemplateDefinition> {
    return withMetadata(appDefinition(await loadApp(this.em, appId)), meta);
  }

  /** What deploying the app sends. */
  async deployable(appId: number): Promise<TemplateDefinition> {
    const definition = await this.definition(appId, {});
    validateTemplate(definition);
    return definition;
  }

  async preview(appId: number, meta: TemplateMetadata): Promise<string> {
    const definition = await this.definition(appId, meta);
    validateTemplate(definition);
    return serializeTemplateFile(definition);
  }

  async create(appId: number, meta: TemplateMetadata): Promise<Template> {
    const definition = await this.definition(appId, meta);
    validateTemplate(definition);
    const template = this.templates.build(definition, null);
    await this.em.flush();
    return this.templates.get(template.id);
  }

  /** Commits and pushes `<name>.pmx` to one of our template repos; GitHub ones over HTTPS with GITHUB_TOKEN if set. */
  async save(
    templateId: number,
    repoName: string,
    meta: TemplateMetadata & { fileName?: string | null },
  ): Promise<{ path: string; commit?: string }> {
    const template = await this.templates.get(templateId);
    const given = repoName?.trim();
    if (!given) throw new ValidationError("repo can't be blank", ['repo']);
    const repo = await this.em.findOne(TemplateRepo, { name: given });
    if (!repo)
      throw new ValidationError(`repo: "${given}" is not a template repo of this service (add it with POST /template_repos first)`, [
        'repo',
      ]);
    const definition = withMetadata(templateFromStored(template), meta);
    validateTemplate(definition);
    const options = {
      cacheDir: this.repoCacheDir,
      timeoutMs: this.config.gitTimeoutMs,
      githubBaseUrl: this.config.githubUrl,
      localRoots: this.config.templateRepoRoots,
      authorName: 'platform',
      authorEmail: 'platform@localhost',
    };
    let target = repo.name;
    const location = classifyRepoName(repo.name, options);
    if (location.kind === 'github' && this.config.githubToken) {
      const url = new URL(location.location);
      url.username = 'x-access-token';
      url.password = this.config.githubToken;
      target = url.toString();
    }
    const fileName = meta.fileName?.trim() || meta.name?.trim() || template.name;
    return saveTemplateFile(target, fileName, serializeTemplateFile(definition), { ...options, message: `Save template ${fileName}.pmx` });
  }
}

/** Images keep their template names ("Reverse Proxy", not "Reverse_Proxy") unless the service was renamed since. */
export function appDefinition(app: App): TemplateDefinition {
  const categories = new Map(app.categories.getItems().map((c) => [c.id, c.name]));
  const imageName = (service: Service) => (service.imageName && service.name === service.internalName ? service.imageName : service.name);
  return {
    name: app.name,
    description: app.description ?? null,
    keywords: app.keywords ?? null,
    type: normalizeType(app.type ?? null),
    documentation: app.documentation ?? null,
    authors: [],
    source: null,
    images: app.services.getItems().map((service) =>
      serviceImage(service, {
        name: imageName(service),
        category: service.categories.map((c) => categories.get(c.category_id)).find((n) => n !== undefined) ?? null,
        links: service.links.getItems().map((l) => ({ service: imageName(l.to), alias: l.alias })),
        volumes_from: service.volumesFrom.getItems().map((v) => ({ service: imageName(v.exportedFrom) })),
      }),
    ),
  };
}

export function withMetadata(def: TemplateDefinition, meta: TemplateMetadata): TemplateDefinition {
  const out = { ...def };
  if (meta.name != null && meta.name.trim() !== '') out.name = meta.name.trim();
  if (meta.description != null) out.description = meta.description;
  if (meta.keywords != null) out.keywords = meta.keywords;
  if (meta.type != null) out.type = normalizeType(meta.type);
  if (meta.documentation != null) out.documentation = meta.documentation;
  if (meta.authors != null) out.authors = authorsList(meta.authors);
  return out;
}

function authorsList(value: unknown): string[] {
  if (Array.isArray(value))
    return value
      .map(String)
      .map((a) => a.trim())
      .filter((a) => a !== '');
  if (typeof value === 'string')
    return value
      .split(',')
      .map((a) => a.trim())
      .filter((a) => a !== '');
  throw new ValidationError('authors must be a list of names or one comma-separated string', ['authors']);
}
