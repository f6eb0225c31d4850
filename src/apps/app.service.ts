import type { EntityManager } from '@mikro-orm/postgresql';
import type { RegistryService } from '../catalog/registry.service';
import type { TemplateService } from '../catalog/template.service';
import type { TemplateRepoService } from '../catalog/template-repo.service';
import { findPage, type KeysetPage } from '../db/keyset';
import { NotFoundError } from '../errors';
import { App, AppCategory } from './app.entity';
import { appSource, buildApp, type AppExtras, type CreateAppInput } from './app-creation';
import { createFromRepo, prepareBuilds, PreparedBuilds } from './image-builds';
import { launch, loadApp, type AppsDeps } from './app-start';
import { readJournal, type JournalEntry, type JournalQuery } from './journal';
import { composeYaml } from './compose/export';
import { ValidationError } from '../errors';
import type { TemplateDefinition } from '../catalog/template-definition';

export interface AppUpdate {
  name?: string | null;
  documentation?: string | null;
}

export interface AppErrorEntry {
  message: string;
}

export class AppService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppsDeps,
    private readonly templates: TemplateService,
    private readonly registries: RegistryService,
    private readonly repos: TemplateRepoService,
    private readonly buildContextMaxBytes: number,
  ) {}

  list(): Promise<App[]> {
    return this.em.find(App, {}, { orderBy: { id: 'asc' }, populate: ['categories', 'services'] });
  }

  /** Categories and services are loaded, batched, by the fields that need them. */
  page(window: KeysetPage): Promise<App[]> {
    return findPage(this.em, App, window);
  }

  count(): Promise<number> {
    return this.em.count(App);
  }

  get(id: number): Promise<App> {
    return loadApp(this.em, id);
  }

  /** By its own id, for a global id's lookup. */
  async category(id: number): Promise<AppCategory> {
    const category = await this.em.findOne(AppCategory, { id });
    if (!category) throw NotFoundError.of('category', id);
    return category;
  }

  /** Build contexts are packed before the app is stored: one that cannot be reached is a 422 and nothing is stored. */
  async create(input: CreateAppInput): Promise<App> {
    if (input.composeRepoId != null || input.composeFile != null) {
      const made = await createFromRepo(input, this.repos, this.buildContextMaxBytes, (source) =>
        this.store(source.definition, source.from, source.extras),
      );
      return this.started(made.id, made.builds, made.definition);
    }
    const { definition, from, extras, builds } = await appSource(input, this.templates, this.registries);
    const prepared = builds
      ? await prepareBuilds(builds, { repos: this.repos, maxContextBytes: this.buildContextMaxBytes })
      : PreparedBuilds.none();
    let app: App;
    try {
      app = await this.store(definition, from, extras);
    } catch (error) {
      await prepared.dispose();
      throw error;
    }
    return this.started(app.id, prepared, definition);
  }

  private store(definition: TemplateDefinition, from: string, extras: AppExtras | undefined): Promise<App> {
    return this.em.transactional(async (em) => {
      const built = await buildApp(em, definition, from, extras);
      await em.flush();
      return built;
    });
  }

  /** After the response; the start runs `builds`, then disposes of them. */
  private async started(id: number, builds: PreparedBuilds, definition: TemplateDefinition): Promise<App> {
    const loaded = await loadApp(this.em, id).catch(async (error: unknown) => {
      await builds.dispose();
      throw error;
    });
    const services = loaded.services.getItems();
    await launch(this.em, this.deps, loaded, services, {
      background: true,
      failOnEngineError: false,
      builds: builds.bind(definition, services),
      record: 'create',
    });
    return loaded;
  }

  async update(id: number, input: AppUpdate): Promise<App> {
    const app = await loadApp(this.em, id);
    if (input.name !== undefined && input.name !== null) {
      const name = input.name.trim();
      if (!name) throw new ValidationError("name can't be blank", ['name']);
      app.name = name;
    }
    if (input.documentation !== undefined) app.documentation = input.documentation;
    await this.em.flush();
    return app;
  }

  async composeYaml(id: number): Promise<string> {
    return composeYaml(await loadApp(this.em, id));
  }

  /** The engine's failure is a 502. */
  async rebuild(id: number): Promise<App> {
    await this.deps.runtime.settled(id);
    // Under the app's lock for the whole run: a rollback or another rebuild waits, never interleaves.
    return this.deps.runtime.starts.exclusive(id, async () => {
      const app = await loadApp(this.em, id);
      await launch(this.em, this.deps, app, app.services.getItems(), { background: false, failOnEngineError: true, record: 'redeploy' });
      return app;
    });
  }

  /** The engine must answer (else 502, nothing removed). */
  async delete(id: number): Promise<App> {
    const app = await loadApp(this.em, id);
    await this.deps.runtime.settled(id);
    await this.deps.runnerFor(this.em).removeApp(id, app.services.getItems());
    await this.em.remove(app).flush();
    await this.deps.history?.store(this.em).forget({ appId: id });
    return app;
  }

  /** Services are loaded if need be, batched across the apps of a list. */
  async errors(app: App): Promise<AppErrorEntry[]> {
    if (!app.services.isInitialized()) await app.services.load();
    return appErrors(app);
  }

  async journal(id: number, query: JournalQuery): Promise<JournalEntry[]> {
    const app = await loadApp(this.em, id);
    const runner = this.deps.runnerFor(this.em);
    const names = new Map(app.services.getItems().map((s) => [String(s.id), s.name]));
    const builds = app.services.getItems().map((s) => ({ service: s.name, lines: s.buildLog ?? [] }));
    return readJournal(this.deps.runtime.docker, await runner.labels(id), names, query, builds);
  }
}

/** Its own, then each service's prefixed with its name, then the warnings. */
export function appErrors(app: App): AppErrorEntry[] {
  const own = app.errors ?? [];
  const warnings = (app.warnings ?? []).map((w) => ({ message: `warning: ${w.message}` }));
  // An unreachable engine is said once, by the app, not again by every service.
  const said = new Set(own.map((e) => e.message));
  const services = app.services.isInitialized()
    ? app.services
        .getItems()
        .filter((s) => s.lastError && !said.has(s.lastError.message))
        .map((s) => ({ message: `${s.name}: ${s.lastError!.message}` }))
    : [];
  return [...own, ...services, ...warnings];
}
