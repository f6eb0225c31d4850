import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

export interface RepoFile {
  /** Relative to the repository root, with `/` separators. */
  path: string;
  text: string;
}

export interface RepoFileError {
  file: string;
  message: string;
}

export const MAX_TEMPLATE_FILE_BYTES = 1024 * 1024;

// A symlinked file is read only inside the tree (a repo must not make us read the host's files), and
// symlinked directories are not followed (no loops). Skipped files are reported, never dropped silently.
export async function collectTemplateFiles(root: string): Promise<{ files: RepoFile[]; errors: RepoFileError[] }> {
  const realRoot = await realpath(root);
  const files: RepoFile[] = [];
  const errors: RepoFileError[] = [];

  async function read(full: string, rel: string): Promise<void> {
    const info = await stat(full);
    if (!info.isFile()) return;
    if (info.size > MAX_TEMPLATE_FILE_BYTES) {
      errors.push({ file: rel, message: `file is larger than 1 MiB (${info.size} bytes); skipped` });
      return;
    }
    files.push({ path: rel, text: await readFile(full, 'utf8') });
  }

  async function walk(dir: string, relDir: string): Promise<void> {
    const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      const isTemplate = entry.name.toLowerCase().endsWith('.pmx');
      if (entry.isDirectory()) {
        await walk(full, rel);
      } else if (entry.isSymbolicLink()) {
        if (!isTemplate) continue;
        let target: string;
        try {
          target = await realpath(full);
        } catch {
          errors.push({ file: rel, message: 'broken symbolic link; skipped' });
          continue;
        }
        if (!target.startsWith(realRoot + path.sep)) {
          errors.push({ file: rel, message: 'symbolic link points outside the repository; skipped' });
          continue;
        }
        if ((await lstat(target)).isFile()) await read(target, rel);
      } else if (entry.isFile() && isTemplate) {
        await read(full, rel);
      }
    }
  }

  await walk(realRoot, '');
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, errors };
}
