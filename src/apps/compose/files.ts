import { lstatSync, readdirSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parse as parseDotenv } from 'dotenv';

/** Nothing outside the repo's checkout is read: not by `..`, not by an absolute path, not through a symbolic link. */
export interface ComposeDirectory {
  /** A real path. */
  root: string;
  /** The compose file's directory. */
  base: string;
}

/** Read whole, so bounded. */
export const MAX_COMPOSE_SIDE_FILE_BYTES = 1024 * 1024;

export function resolveInside(dir: ComposeDirectory, rel: string): { path: string } | { problem: string } {
  if (path.isAbsolute(rel)) return { problem: `"${rel}" is an absolute path: give a path relative to the compose file, inside its repo` };
  const full = path.resolve(dir.base, rel);
  if (!isInside(dir.root, full)) return { problem: `"${rel}" leaves the template repo: only files of the repo are read` };
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    return { problem: `"${rel}" does not exist in the template repo` };
  }
  if (!isInside(dir.root, real))
    return { problem: `"${rel}" is a symbolic link out of the template repo: only files of the repo are read` };
  return { path: real };
}

/** The content is never part of a message. */
export function readInside(dir: ComposeDirectory, rel: string): { text: string } | { problem: string } {
  const resolved = resolveInside(dir, rel);
  if ('problem' in resolved) return resolved;
  const info = statSync(resolved.path);
  if (!info.isFile()) return { problem: `"${rel}" is not a file` };
  if (info.size > MAX_COMPOSE_SIDE_FILE_BYTES) return { problem: `"${rel}" is larger than ${MAX_COMPOSE_SIDE_FILE_BYTES} bytes` };
  return { text: readFileSync(resolved.path, 'utf8') };
}

export function readEnvFile(dir: ComposeDirectory, rel: string): { variables: Record<string, string> } | { problem: string } {
  const read = readInside(dir, rel);
  if ('problem' in read) return read;
  return { variables: parseDotenv(read.text) };
}

/** No symbolic link out of the repo: the engine would not follow one, but a repo may not name the server's files at all. */
export function buildContext(dir: ComposeDirectory, rel: string, dockerfile: string): { path: string } | { problem: string } {
  const resolved = resolveInside(dir, rel);
  if ('problem' in resolved) return resolved;
  if (!statSync(resolved.path).isDirectory()) return { problem: `"${rel}" is not a directory` };
  const file = path.resolve(resolved.path, dockerfile);
  if (path.isAbsolute(dockerfile) || !isInside(resolved.path, file))
    return { problem: `dockerfile "${dockerfile}" leaves the build context` };
  const outward = linkOut(dir.root, resolved.path);
  if (outward) return { problem: `"${rel}" has a symbolic link out of the template repo (${outward})` };
  try {
    if (!statSync(file).isFile()) return { problem: `dockerfile "${dockerfile}" is not a file` };
    if (!isInside(dir.root, realpathSync(file)))
      return { problem: `dockerfile "${dockerfile}" is a symbolic link out of the template repo` };
  } catch {
    return { problem: `dockerfile "${dockerfile}" does not exist in the build context "${rel}"` };
  }
  return { path: resolved.path };
}

function linkOut(root: string, dir: string, rel = ''): string | null {
  for (const entry of readdirSync(path.join(dir, rel), { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    const full = path.join(dir, child);
    if (entry.isSymbolicLink()) {
      let target: string;
      try {
        target = realpathSync(full);
      } catch {
        // A dangling link: resolve it lexically.
        target = path.resolve(path.dirname(full), readlinkSync(full));
      }
      if (!isInside(root, target)) return child;
    } else if (entry.isDirectory() && !lstatSync(full).isSymbolicLink()) {
      const found = linkOut(root, dir, child);
      if (found) return found;
    }
  }
  return null;
}

function isInside(root: string, candidate: string): boolean {
  return candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep);
}
