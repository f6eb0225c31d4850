import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { DockerClient } from '../../src/engines/docker-client';
import { suffix } from '../apps/fixtures';
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
