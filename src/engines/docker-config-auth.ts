import { readFile } from 'node:fs/promises';
import type { PullCredentials } from './container-launcher';
import type { RegistryAuth } from './docker-types';

/** Read at each pull so a new `docker login` needs no restart; credential helpers (`credsStore`) are not run. */
export function dockerConfigCredentials(file: string): PullCredentials {
  return async (host) => {
    const config = JSON.parse(await readFile(file, 'utf8')) as { auths?: Record<string, { auth?: string; identitytoken?: string }> };
    const entry = Object.entries(config.auths ?? {}).find(([key]) => registryHost(key) === host)?.[1];
    if (!entry) return undefined;
    if (entry.identitytoken) return { identitytoken: entry.identitytoken, serveraddress: host } satisfies RegistryAuth;
    if (!entry.auth) return undefined;
    const decoded = Buffer.from(entry.auth, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return undefined;
    return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1), serveraddress: host };
  };
}

/** A key of `auths` (`https://registry.example:5000/v2/` or `registry.example:5000`) as its host. */
function registryHost(key: string): string {
  return key
    .replace(/^https?:\/\//, '')
    .split('/')[0]
    .toLowerCase();
}
