import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DockerClient } from '../../src/engines/docker-client';
import { suffix } from '../apps/fixtures';
import { waitFor } from '../helpers/kubernetes';
import { makeImage } from '../helpers/docker';

const run = promisify(execFile);

/**
 * New bits under one tag, as a team pushing a new build: an image whose command says `marker`,
 * tagged `ref` and pushed to the test registry. Its id goes to `made` (for cleanup), its digest
 * to `digests` and is returned.
 */
export async function pushBits(docker: DockerClient, ref: string, marker: string, made: Set<string>, digests: string[]): Promise<string> {
  const repository = ref.slice(0, ref.lastIndexOf(':'));
  const local = `platform-test/history-${marker}:${suffix()}`;
  await makeImage(docker, local, ['sh', '-c', `echo ${marker}; exec sleep 3600`]);
  await run('docker', ['tag', local, ref]);
  await docker.removeImage(local);
  await run('docker', ['push', ref]);
  const pushed = await docker.inspectImage(ref);
  made.add(pushed.Id);
  const digest = (pushed.RepoDigests ?? []).find((d) => d.startsWith(`${repository}@`))!.split('@')[1];
  digests.push(digest);
  return digest;
}

/** Once nothing runs them any more (pods and tasks go some time after their objects). */
export async function removePushedImages(docker: DockerClient, made: Set<string>): Promise<void> {
  for (const id of made) {
    await waitFor(
      `image ${id} removed`,
      () =>
        docker.removeImage(id, { force: true }).then(
          () => true,
          (error: unknown) => (/No such image/.test(String(error)) ? true : undefined),
        ),
      90_000,
    ).catch(() => undefined);
  }
}

/** A revision as the REST routes answer it. */
export interface RevisionBody {
  number: number;
  action: string;
  rollback_of: number | null;
  outcome: string;
  error: string | null;
  current: boolean;
  author: { kind: string; name: string };
  created_at: string;
  settled_at: string | null;
  images: { name: string; source: string; digest: string | null; reference: string | null; note: string | null }[];
  deployment_id?: number | null;
}

/** A succeeded create by the admin token of one image `web` from `source`, pinned to `digest`, unless `fields` say otherwise. */
export function expectedRevision(source: string, fields: Partial<RevisionBody> & { number: number; digest: string }): RevisionBody {
  const { digest, ...rest } = fields;
  const repository = source.slice(0, source.lastIndexOf(':'));
  return {
    action: 'create',
    rollback_of: null,
    outcome: 'succeeded',
    error: null,
    current: false,
    author: { kind: 'admin-token', name: 'admin' },
    created_at: expect.any(String) as unknown as string,
    settled_at: expect.any(String) as unknown as string,
    images: [{ name: 'web', source, digest, reference: `${repository}@${digest}`, note: null }],
    ...rest,
  };
}
