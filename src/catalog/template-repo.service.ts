import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, type KeysetPage } from '../db/keyset';
import { ConflictError, NotFoundError, UpstreamError, ValidationError } from '../errors';
import type { Logger } from '../logger';
import { classifyRepoName, loadTemplates, readRepo, withGitRef, withRepoDirectory } from './repo-source';
import { TemplateRepo } from './template-repo.entity';
import { Template } from './template.entity';
import { TemplateService } from './template.service';

export interface RepoSourceOptions {
  cacheDir: string;
  timeoutMs: number;
  githubBaseUrl: string;
  localRoots: readonly string[];
}

export class TemplateRepoService {
  constructor(
    private readonly em: EntityManager,
    private readonly source: RepoSourceOptions,
    private readonly log: Logger,
  ) {}

  list(): Promise<TemplateRepo[]> {
    return this.em.find(TemplateRepo, {}, { orderBy: { id: 'asc' } });
  }

  page(window: KeysetPage): Promise<TemplateRepo[]> {
    return findPage(this.em, TemplateRepo, window);
  }

  count(): Promise<number> {
    return this.em.count(TemplateRepo);
  }

  async get(id: number): Promise<TemplateRepo> {
    const repo = await this.em.findOne(TemplateRepo, { id });
    if (!repo) throw NotFoundError.of('template repo', id);
    return repo;
  }

  async withCheckout<T>(id: number, use: (dir: string) => Promise<T>): Promise<T> {
    const repo = await this.get(id);
    return withRepoDirectory(repo.name, this.source, use);
  }

  withGitRef<T>(url: string, ref: string, use: (dir: string) => Promise<T>): Promise<T> {
    return withGitRef(url, ref, this.source, use);
  }

  /** Read before anything is written, so a repo that cannot be read (502) is not created. */
  async create(rawName: string): Promise<TemplateRepo> {
    const name = rawName.trim();
    if (!name) throw new ValidationError("name can't be blank", ['name']);
    classifyRepoName(name, this.source);
    if (await this.em.count(TemplateRepo, { name })) throw new ConflictError(`template repo ${name} already exists`, ['name']);
    const loaded = await this.read(name);
    return this.em
      .transactional((em) => {
        const repo = em.create(TemplateRepo, { name, templateCount: 0, loadErrors: [] });
        this.store(em, repo, loaded);
        return repo;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw new ConflictError(`template repo ${name} already exists`, ['name']);
        throw error;
      });
  }

  // A template is its file path: an edited file updates it in place (same id, image ids by position). A repo
  // that cannot be read keeps its templates, as the read fails before the transaction.
  async reload(id: number): Promise<TemplateRepo> {
    const { name } = await this.get(id);
    const loaded = await this.read(name).catch((error: unknown) => {
      // A repo that was readable when added and is gone now is an upstream failure, not bad input.
      if (error instanceof ValidationError) throw new UpstreamError(`template repo ${name} cannot be read: ${error.message}`);
      throw error;
    });
    return this.em.transactional(async (em) => {
      // Two reloads of one repo (two clients, two replicas) serialise on its row: FOR UPDATE, which
      // waits (lock mode 4 was FOR UPDATE SKIP LOCKED, and a reload that met the lock found no row).
      const repo = await em.findOneOrFail(TemplateRepo, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      const existing = await em.find(Template, { repo: id }, { populate: ['images'], orderBy: { id: 'asc' } });
      this.store(em, repo, loaded, existing);
      return repo;
    });
  }

  async delete(id: number): Promise<TemplateRepo> {
    const repo = await this.get(id);
    // Templates go with it (on delete cascade).
    await this.em.remove(repo).flush();
    return repo;
  }

  private async read(name: string) {
    const { files, errors } = await readRepo(name, this.source);
    const loaded = loadTemplates(files, name);
    loaded.errors.unshift(...errors.map((error) => ({ ...error, line: null })));
    for (const error of loaded.errors)
      this.log.warn({ repo: name, file: error.file, line: error.line }, `template not loaded: ${error.message}`);
    return loaded;
  }

  private store(em: EntityManager, repo: TemplateRepo, loaded: ReturnType<typeof loadTemplates>, existing: Template[] = []): void {
    const templates = new TemplateService(em);
    const byPath = new Map(existing.filter((t) => t.path != null).map((t) => [t.path!, t]));
    // Rows stored before templates had a path (migration 0010) are matched once by name.
    const unpathed = existing.filter((t) => t.path == null);
    const kept = new Set<Template>();
    for (const { path, definition } of loaded.templates) {
      let template = byPath.get(path);
      if (!template) {
        const index = unpathed.findIndex((t) => t.name === definition.name);
        if (index >= 0) [template] = unpathed.splice(index, 1);
      }
      if (template) {
        templates.update(template, definition);
        template.path = path;
        kept.add(template);
      } else {
        templates.build(definition, repo, path);
      }
    }
    for (const template of existing) if (!kept.has(template)) em.remove(template);
    repo.templateCount = loaded.templates.length;
    repo.loadErrors = loaded.errors;
    repo.updatedAt = new Date();
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: string }).code === '23505';
}
