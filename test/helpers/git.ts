import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
};

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' });
}

/** A real git repository holding the given files, committed. Returns its path. */
export function makeGitRepo(files: Record<string, string>, base = os.tmpdir()): string {
  const dir = mkdtempSync(path.join(base, 'tpl-repo-'));
  git(dir, 'init', '-q', '-b', 'main');
  commitFiles(dir, files);
  return dir;
}

export function commitFiles(dir: string, files: Record<string, string>, message = 'templates'): void {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '--allow-empty', '-m', message);
}

/** A small valid .pmx document. */
export function pmx(name: string, options: { keywords?: string; images?: string } = {}): string {
  return [
    `name: ${name}`,
    `description: ${name} description`,
    `keywords: ${options.keywords ?? ''}`,
    'type: Default',
    'documentation: |',
    `  # ${name}`,
    '  Run it.',
    'images:',
    options.images ??
      [
        '  - name: web',
        '    source: platform-test/busybox:latest',
        '    category: Web',
        '    command: httpd -f -p 80',
        '    expose: [80]',
        '    ports:',
        '      - host_port: 8080',
        '        container_port: 80',
        '        proto: tcp',
        '    links:',
        '      - service: db',
        '        alias: database',
        '    environment:',
        '      - variable: MODE',
        '        value: prod',
        '    volumes:',
        '      - host_path: /tmp/data',
        '        container_path: /data',
        '    volumes_from:',
        '      - service: db',
        '  - name: db',
        '    source: platform-test/busybox:latest',
        '    category: DB',
      ].join('\n'),
  ].join('\n');
}
