import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateRepoService } from '../catalog/template-repo.service';
import type { TemplateDefinition } from '../catalog/template-definition';
import { BadRequestError, ValidationError } from '../errors';
import type { App, BuildLine } from './app.entity';
import { environmentMap, type AppExtras, type CreateAppInput } from './app-builder';
import type { AppRuntime } from './app-runtime';
import { LABEL_INSTANCE } from './app-runner';
import { loadComposeApp } from './compose';
import { readInside } from './compose-files';

export const LABEL_BUILD = 'platform.build';
/** The last lines of a build kept with its service (a build may print without end). */
export const MAX_BUILD_LINES = 500;

export interface AppSourceResult {
  definition: TemplateDefinition;
  from: string;
  extras: AppExtras;
}

/**
 * An app from a compose file of a template repo (`compose_repo_id` + `compose_file`): the file is
 * read from a fresh checkout, with its env_file, `file:` secrets and configs relative to it, and the
 * images of its `build:` services are built from the checkout (POST /build) before the app is
 * stored. A failed build is a 422 naming the service and nothing is stored or left tagged: the
 * engine removes its intermediate containers, and images built for other services are removed.
 */
export async function createFromRepo(
  input: CreateAppInput,
  repos: TemplateRepoService,
  runtime: AppRuntime,
  em: EntityManager,
  maxContextBytes: number,
  store: (source: AppSourceResult) => Promise<App>,
): Promise<App> {
  if (input.composeYaml != null)
    throw new BadRequestError('give compose_yaml, or compose_repo_id with compose_file, not both', ['compose_yaml']);
  if (input.composeRepoId == null) throw new BadRequestError('compose_repo_id is required with compose_file', ['compose_repo_id']);
  const file = input.composeFile?.trim() ?? '';
  if (file === '') throw new BadRequestError("compose_file: can't be blank (the compose file's path in the repo)", ['compose_file']);
  const repo = await repos.get(input.composeRepoId);
  const instance = await runtime.instanceId(em);
  return repos.withCheckout(repo.id, async (root) => {
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
    const definition = { ...compose.definition, name };
    const built: string[] = [];
    const logs = new Map<string, BuildLine[]>();
    try {
      for (const [service, spec] of compose.builds) {
        const lines: BuildLine[] = [];
        logs.set(service, lines);
        await runtime.docker.buildImage(
          `services.${service}.build`,
          {
            contextDir: spec.contextDir,
            dockerfile: spec.dockerfile,
            tag: spec.tag,
            args: spec.args,
            target: spec.target,
            labels: { [LABEL_INSTANCE]: instance, [LABEL_BUILD]: service },
          },
          {
            maxContextBytes,
            onLine: (message) => {
              lines.push({ timestamp: lineTime(), message });
              if (lines.length > MAX_BUILD_LINES) lines.shift();
            },
          },
        );
        built.push(spec.tag);
      }
      return await store({
        definition,
        from: `Compose: ${repo.name}/${file.replace(/^\.\//, '')}`,
        extras: { name, warnings: compose.warnings, options: compose.options, buildLogs: logs },
      });
    } catch (error) {
      for (const tag of built) await runtime.docker.removeImage(tag, { force: true }).catch(() => undefined);
      throw error;
    }
  });
}

let lastNanos = 0n;

/** Now as RFC 3339 with nanoseconds, strictly increasing: each line gets its own journal cursor. */
function lineTime(): string {
  let now = BigInt(Date.now()) * 1_000_000n;
  if (now <= lastNanos) now = lastNanos + 1n;
  lastNanos = now;
  const seconds = new Date(Number(now / 1_000_000_000n) * 1000).toISOString().slice(0, 19);
  return `${seconds}.${String(now % 1_000_000_000n).padStart(9, '0')}Z`;
}
