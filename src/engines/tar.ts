import { pack } from 'tar-stream';

/** A tar archive of `files` (absolute targets become paths from `/`), for the engine's archive API. */
export async function tarOf(files: Array<{ target: string; content: string; mode?: number }>): Promise<Buffer> {
  const archive = pack();
  const dirs = new Set<string>();
  for (const file of files) {
    const parts = file.target.replace(/^\/+/, '').split('/');
    for (let i = 1; i < parts.length; i += 1) {
      const dir = parts.slice(0, i).join('/');
      if (dirs.has(dir)) continue;
      dirs.add(dir);
      archive.entry({ name: `${dir}/`, type: 'directory', mode: 0o755 });
    }
    archive.entry({ name: parts.join('/'), mode: file.mode ?? 0o444 }, file.content);
  }
  archive.finalize();
  const chunks: Buffer[] = [];
  for await (const chunk of archive) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
