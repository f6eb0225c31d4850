import type { V1Secret } from '@kubernetes/client-node';
import { imageHost, type PullCredentials } from '../../../engines/container-launcher';
import type { DeployTemplate } from '../../descriptor';
import { objectName, ownerLabels } from './names';

/**
 * The agent's registry logins (AGENT_DOCKER_CONFIG) for the registries a template's images name, as
 * one dockerconfigjson Secret of the deployment: its pods pull with it, and it goes with them.
 * None when no image needs a login the agent has. Identity tokens are left out: the kubelet reads
 * only user names and passwords.
 */
export async function pullSecret(
  template: DeployTemplate,
  deployment: string,
  key: string,
  credentials: PullCredentials,
): Promise<V1Secret | undefined> {
  const hosts = [...new Set(template.images.map((image) => imageHost(image.source ?? '')).filter((host) => host !== null))];
  const auths: Record<string, { username: string; password: string; auth: string }> = {};
  for (const host of hosts) {
    const login = await credentials(host);
    if (!login || !('username' in login)) continue;
    const { username, password } = login;
    auths[host] = { username, password, auth: Buffer.from(`${username}:${password}`).toString('base64') };
  }
  if (Object.keys(auths).length === 0) return undefined;
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    // A dot keeps it apart from every image's objects, whose names have none.
    metadata: { name: `${objectName(deployment, 'registry')}.pull`, labels: ownerLabels(deployment, key) },
    type: 'kubernetes.io/dockerconfigjson',
    data: { '.dockerconfigjson': Buffer.from(JSON.stringify({ auths })).toString('base64') },
  };
}
