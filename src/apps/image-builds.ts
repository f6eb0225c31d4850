import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateRepoService } from '../catalog/template-repo.service';
import type { TemplateDefinition } from '../catalog/template-definition';
import { packContext } from '../engines/docker-build';
import { isEngineUnreachable } from '../engines/engine-errors';
import { BadRequestError, DomainError, PayloadTooLargeError, ValidationError } from '../errors';
import { Service, type BuildLine } from './app.entity';
import { environmentMap, type AppExtras, type CreateAppInput } from './app-creation';
import type { EngineRuntime } from './engine-runtime';
import { LABEL_INSTANCE } from './container-labels';
import { runError } from './run-error';
import { contextLabel } from './build-context';
import { loadComposeApp, type ComposeApp } from './compose/compose-app';
import { buildContext, readInside } from './compose/files';
import { FIELD } from './compose/loader';

export const LABEL_BUILD = 'platform.build';
/** A build may print without end. */
export const MAX_BUILD_LINES = 500;
const SAVE_LINES_EVERY_MS = 250;

export interface AppSourceResult {
  definition: TemplateDefinition;
  from: string;
  extras: AppExtras;
}

interface PreparedBuild {
  tar: string;
  tag: string;
  dockerfile: string;
  args: Record<string, string>;
  target?: string;
  /** The compose service's name, for the image's label. */
  service: string;
}

/** Contexts are packed in the request, so one that cannot be reached is its 422 and nothing is stored; builds run at start. */
export class PreparedBuilds {
  private readonly byService = new Map<number, PreparedBuild>();

  constructor(
    private readonly dir: string | null,
    private readonly byName: ReadonlyMap<string, PreparedBuild>,
  ) {}

  static none(): PreparedBuilds {
    return new PreparedBuilds(null, new Map());
  }

  /** A service's `position` is its image's index in the definition. */
  bind(definition: TemplateDefinition, services: Service[]): this {
    for (const service of services) {
      const build = this.byName.get(definition.images[service.position]?.name.trim() ?? '');
      if (build) this.byService.set(service.id, build);
    }
    return this;
  }

  has(service: Service): boolean {
    return this.byService.has(service.id);
  }

  /** False when the build failed (the service's error); an unreachable engine is thrown for the runner. */
  async run(em: EntityManager, runtime: EngineRuntime, service: Service): Promise<boolean> {
    const build = this.byService.get(service.id)!;
    const lines: BuildLine[] = [];
    const add = (message: string) => {
      lines.push({ timestamp: lineTime(), message });
      if (lines.length > MAX_BUILD_LINES) lines.shift();
    };
    service.startingAt = new Date();
    service.lastError = null;
    service.buildLog = [];
    await em.flush();
    let saving: Promise<unknown> = Promise.resolve();
    let savedAt = 0;
    let pending: NodeJS.Timeout | undefined;
    const save = () => {
      pending = undefined;
      savedAt = Date.now();
      const snapshot = [...lines];
      // One write at a time, in order; the entity itself gets the final lines below.
      saving = saving.then(() => em.nativeUpdate(Service, { id: service.id }, { buildLog: snapshot })).catch(() => undefined);
    };
    try {
      await runtime.docker.buildImage(
        '',
        {
          contextTar: build.tar,
          dockerfile: build.dockerfile,
          tag: build.tag,
          args: build.args,
          target: build.target,
          // Not the app's label: the build's own containers carry the image's labels, and would be read as the app's.
          labels: { [LABEL_INSTANCE]: await runtime.instanceId(em), [LABEL_BUILD]: build.service },
        },
        {
          onLine: (message) => {
            add(message);
            // Written when the interval ends, not with the next line, which may come minutes later.
            pending ??= setTimeout(save, Math.max(0, savedAt + SAVE_LINES_EVERY_MS - Date.now()));
          },
        },
      );
      return true;
    } catch (error) {
      if (isEngineUnreachable(error)) throw error;
      service.lastError = runError(error);
      service.startingAt = null;
      add(service.lastError.message);
      return false;
    } finally {
      clearTimeout(pending);
      await saving;
      service.buildLog = [...lines];
    }
  }

  async dispose(): Promise<void> {
    if (this.dir) await rm(this.dir, { recursive: true, force: true });
  }
}

export interface PrepareOptions {
  repos: TemplateRepoService;
  maxContextBytes: number;
}

/** Every unreachable context is reported at once, a 422 on `services.<name>.build`; one over the limit is a 413. */
export async function prepareBuilds(builds: ComposeApp['builds'], options: PrepareOptions): Promise<PreparedBuilds> {
  if (builds.size === 0) return PreparedBuilds.none();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'platform-build-'));
  const prepared = new Map<string, PreparedBuild>();
  const problems: string[] = [];
  try {
    for (const [service, spec] of builds) {
      const at = `services.${service}.build`;
      const tar = path.join(dir, `${prepared.size}.tar`);
      const pack = (contextDir: string) =>
        packContext(contextDir, spec.dockerfile, options.maxContextBytes, tar).catch((error: unknown) => {
          if (error instanceof PayloadTooLargeError) throw new PayloadTooLargeError(`${at}: ${error.message}`, ['build']);
          throw error;
        });
      if (spec.git) {
        const git = spec.git;
        try {
          await options.repos.withGitRef(git.url, git.ref, async (checkout) => {
            const found = buildContext({ root: checkout, base: checkout }, git.subdir || '.', spec.dockerfile);
            if ('problem' in found) {
              problems.push(
                `${at}: in the git context "${spec.context}": ${found.problem.replace(/the template repo/g, 'the git repository')}`,
              );
              return;
            }
            await pack(found.path);
          });
        } catch (error) {
          if (!(error instanceof DomainError) || error instanceof PayloadTooLargeError) throw error;
          // Policy refusals speak of the template repo's `name`; git's failures carry the URL without credentials.
          problems.push(
            `${at}: the git context "${spec.context}" cannot be fetched: ${contextLabel(error.message.replace(/^name: /, ''))}`,
          );
          continue;
        }
        if (problems.some((p) => p.startsWith(`${at}:`))) continue;
      } else {
        await pack(spec.contextDir!);
      }
      prepared.set(service, { tar, tag: spec.tag, dockerfile: spec.dockerfile, args: spec.args, target: spec.target, service });
    }
    if (problems.length > 0) throw new ValidationError(`${FIELD}: ${problems.join('; ')}`, [FIELD]);
    return new PreparedBuilds(dir, prepared);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

/** The file, its env_file, secrets, configs and build contexts are read from a fresh checkout before the app is stored. */
export async function createFromRepo(
  input: CreateAppInput,
  repos: TemplateRepoService,
  maxContextBytes: number,
  store: (source: AppSourceResult) => Promise<{ id: number }>,
): Promise<{ definition: TemplateDefinition; builds: PreparedBuilds; id: number }> {
  if (input.composeYaml != null)
    throw new BadRequestError('give compose_yaml, or compose_repo_id with compose_file, not both', ['compose_yaml']);
  if (input.composeRepoId == null) throw new BadRequestError('compose_repo_id is required with compose_file', ['compose_repo_id']);
  const file = input.composeFile?.trim() ?? '';
  if (file === '') throw new BadRequestError("compose_file: can't be blank (the compose file's path in the repo)", ['compose_file']);
  const repo = await repos.get(input.composeRepoId);
  const { source, builds } = await repos.withCheckout(repo.id, async (root) => {
    const read = readInside({ root, base: root }, file);
    if ('problem' in read) throw new ValidationError(`compose_file: ${read.problem}`, ['compose_file']);
    const base = path.dirname(path.resolve(root, file));
    const compose = loadComposeApp(read.text, {
      environment: environmentMap(input.environment),
      profiles: input.profiles ?? [],
      directory: { root, base },
    });
    const where = path.relative(root, base) || repo.name.replace(/\/+$/, '').replace(/\.git$/, '');
    const name = input.name?.trim() || compose.name || path.basename(where);
    // The checkout lives only while this runs: the contexts are packed now.
    const prepared = await prepareBuilds(compose.builds, { repos, maxContextBytes });
    return {
      builds: prepared,
      source: {
        definition: { ...compose.definition, name },
        from: `Compose: ${repo.name}/${file.replace(/^\.\//, '')}`,
        extras: { name, warnings: compose.warnings, options: compose.options },
      },
    };
  });
  try {
    const app = await store(source);
    return { definition: source.definition, builds, id: app.id };
  } catch (error) {
    await builds.dispose();
    throw error;
  }
}

let lastNanos = 0n;

/** RFC 3339 with nanoseconds, strictly increasing: each line gets its own journal cursor. */
function lineTime(): string {
  let now = BigInt(Date.now()) * 1_000_000n;
  if (now <= lastNanos) now = lastNanos + 1n;
  lastNanos = now;
  const seconds = new Date(Number(now / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(now % 1_000_000_000n).padStart(9, '0')}Z`;
}
