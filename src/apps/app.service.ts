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

/** One entry of an App's `errors`. */
export interface AppErrorEntry {
  message: string;
}

/** Apps: create from a template, compose file or image; rebuild; delete; journal. */
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

  /** A page of apps; their categories and services are loaded by the fields that need them, batched. */
  page(window: KeysetPage): Promise<App[]> {
    return findPage(this.em, App, window);
  }

  count(): Promise<number> {
    return this.em.count(App);
  }

  get(id: number): Promise<App> {
    return loadApp(this.em, id);
  }

  /** One category of an app, by its own id (a global id's lookup). */
  async category(id: number): Promise<AppCategory> {
    const category = await this.em.findOne(AppCategory, { id });
    if (!category) throw NotFoundError.of('category', id);
    return category;
  }

  /**
   * Stores the app, then starts its services after the response, in dependency order; images of
   * compose `build:` services are built first, their contexts found and packed before the app is
   * stored (a context that cannot be reached is a 422 and nothing is stored).
   */
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

  /** Starts a stored app's services after the response; `builds` are run, then disposed of, by the start (launch). */
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
    });
    return loaded;
  }

  /** Renames the app or changes its documentation; its services are not touched. */
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

  /** The app as a Compose file (GET /apps/{id}/compose_yml). */
  async composeYaml(id: number): Promise<string> {
    return composeYaml(await loadApp(this.em, id));
  }

  /** Recreates every service's container from the stored definition; the engine's failure is a 502. */
  async rebuild(id: number): Promise<App> {
    const app = await loadApp(this.em, id);
    await launch(this.em, this.deps, app, app.services.getItems(), { background: false, failOnEngineError: true });
    return app;
  }

  /** Removes the containers and the network, then the rows. The engine must answer (else 502, nothing removed). */
  async delete(id: number): Promise<App> {
    const app = await loadApp(this.em, id);
    await this.deps.runtime.settled(id);
    await this.deps.runnerFor(this.em).removeApp(id, app.services.getItems());
    await this.em.remove(app).flush();
    return app;
  }

  /** The app's errors with its services' (loaded if need be: batched across the apps of a list). */
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

/** The App's `errors`: its own, then each service's, prefixed with the service's name, then its warnings. */
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
