import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { extraRoutes, routes } from '../../rest/routes';
import type { RestRoute } from '../../rest/route-table';
import type { Adapter } from '../../src/agent/adapters/adapter';
import type { DeploymentService } from '../../src/agent/agent-deployment.service';
import { agentRoutes } from '../../src/agent/routes';

/**
 * docs/interface.md is the interface reference readers of the repository follow: every path of
 * the route tables must have its section (a `### \`METHOD /path\`` heading) and its row in the
 * summary table of its part, and nothing may be documented that is not served. The README and
 * docs/ must not send readers outside the repository.
 */
const ROOT = path.join(__dirname, '../..');
const DOC = path.join(ROOT, 'docs/interface.md');

const PART_A = 'Interface A: the main service';
const PART_EXTENSIONS = 'Extensions to interface A';
const PART_B = 'Interface B: the agent';

const METHOD = '(GET|POST|PUT|PATCH|DELETE)';
const HEADING = new RegExp(`^### \`${METHOD} (/[^\`]*)\`( \\(extension\\))?$`);
const SUMMARY_ROW = new RegExp(`^\\| \`${METHOD}\`\\s*\\| \\[\`(/[^\`]*)\`\\]\\(#([^)]+)\\)( \\(extension\\))?\\s*\\| (\\d{3})\\s*\\|`);

interface Documented {
  headings: { method: string; path: string; extension: boolean }[];
  rows: { method: string; path: string; anchor: string; extension: boolean; status: number }[];
}

/** The doc's `## ` parts, each with its path headings and its summary table's rows. */
function documentedParts(text: string): Map<string, Documented> {
  const parts = new Map<string, Documented>();
  let current: Documented | undefined;
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) continue;
    if (line.startsWith('## ')) {
      current = { headings: [], rows: [] };
      parts.set(line.slice(3).trim(), current);
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) current?.headings.push({ method: heading[1], path: heading[2], extension: heading[3] !== undefined });
    const row = SUMMARY_ROW.exec(line);
    if (row) {
      current?.rows.push({ method: row[1], path: row[2], anchor: row[3], extension: row[4] !== undefined, status: Number(row[5]) });
    }
  }
  return parts;
}

/** A path with its parameters as `{}`: `/apps/:app_id` and `/apps/{app_id}` are the same path; a trailing `*` is one parameter too. */
function shape(routePath: string): string {
  return routePath
    .replace(/:\w+/g, '{}')
    .replace(/\*$/, '{}')
    .replace(/\{[a-z_]+\}/g, '{}');
}

const key = (entry: { method: string; path: string }) => `${entry.method} ${shape(entry.path)}`;
const sorted = (values: string[]) => [...values].sort();

function part(name: string): Documented {
  const found = documentedParts(readFileSync(DOC, 'utf8')).get(name);
  if (!found) throw new Error(`docs/interface.md has no part "## ${name}"`);
  return found;
}

/** The agent's table; the handlers are never called here. */
function agentTable(): { method: string; path: string }[] {
  return agentRoutes({} as DeploymentService, {} as Adapter).map(({ method, path: routePath }) => ({ method, path: routePath }));
}

describe('docs/interface.md documents every route', () => {
  const cases: [string, string, readonly RestRoute[]][] = [
    ["interface A's routes (rest/routes.ts `routes`)", PART_A, routes],
    ['the extensions (rest/routes.ts `extraRoutes`)', PART_EXTENSIONS, extraRoutes],
  ];

  test.each(cases)('%s: a section each, and nothing else, in "## %s"', (_what, name, table) => {
    const documented = part(name);
    expect(sorted(documented.headings.map(key))).toEqual(sorted(table.map(key)));
  });

  test.each(cases)('%s: the summary table of "## %s" has each path once, with the route\'s success status', (_what, name, table) => {
    const documented = part(name);
    expect(sorted(documented.rows.map((row) => `${key(row)} ${row.status}`))).toEqual(sorted(table.map((r) => `${key(r)} ${r.status}`)));
  });

  test('every extension is marked as one, and nothing of the specification is', () => {
    expect(part(PART_EXTENSIONS).headings.filter((h) => !h.extension)).toEqual([]);
    expect(part(PART_A).headings.filter((h) => h.extension)).toEqual([]);
  });

  test('the agent\'s routes (src/agent/routes.ts): a section each, and a summary row each, in "## Interface B: the agent"', () => {
    const documented = part(PART_B);
    const table = agentTable();
    expect(sorted(documented.headings.map(key))).toEqual(sorted(table.map(key)));
    expect(sorted(documented.rows.map(key))).toEqual(sorted(table.map(key)));
  });

  test("each summary row links to its path's section", () => {
    const text = readFileSync(DOC, 'utf8');
    const anchors = headingAnchors(text);
    const broken = [PART_A, PART_EXTENSIONS, PART_B].flatMap((name) =>
      part(name)
        .rows.filter((row) => !anchors.has(row.anchor) || !sameRoute(text, row))
        .map((row) => `${row.method} ${row.path} → #${row.anchor}`),
    );
    expect(broken).toEqual([]);
  });
});

/** The heading a summary row's anchor names is that row's method and path. */
function sameRoute(text: string, row: Documented['rows'][number]): boolean {
  const heading = text
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .find((line) => slug(line.replace(/^#+\s*/, '')) === row.anchor);
  const parsed = heading ? HEADING.exec(heading) : null;
  return parsed !== null && parsed[1] === row.method && parsed[2] === row.path;
}

describe('README.md and docs/ link only inside the repository', () => {
  const files = ['README.md', ...markdownUnder('docs')];

  test.each(files)('%s: every relative link names a file of the repository (and a heading of it)', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const problems = links(text).flatMap((target) => linkProblem(file, target) ?? []);
    expect(problems).toEqual([]);
  });

  test.each(files)('%s: names no path outside the repository', (file) => {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const outside = [...text.matchAll(/(?:\.\.\/)+[A-Za-z_][\w.-]*(?:\/[\w.-]+)*/g)]
      .map((match) => match[0])
      .filter((mention) => isOutside(path.resolve(path.dirname(path.join(ROOT, file)), mention)));
    expect(outside).toEqual([]);
  });
});

function markdownUnder(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** The targets of the Markdown links and images of a text, outside code blocks and code spans. */
function links(text: string): string[] {
  let fenced = false;
  const prose = text
    .split('\n')
    .filter((line) => {
      if (line.startsWith('```')) fenced = !fenced;
      return !fenced && !line.startsWith('```');
    })
    .join('\n')
    .replace(/`[^`\n]*`/g, 'code');
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]);
}

function linkProblem(file: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto:
  const [pathPart, anchor] = target.split('#') as [string, string | undefined];
  if (pathPart.startsWith('/')) return `${target}: an absolute path`;
  const resolved =
    pathPart === '' ? path.join(ROOT, file) : path.resolve(path.dirname(path.join(ROOT, file)), decodeURIComponent(pathPart));
  if (isOutside(resolved)) return `${target}: outside the repository`;
  if (!existsSync(resolved)) return `${target}: no such file`;
  if (anchor !== undefined && resolved.endsWith('.md') && !headingAnchors(readFileSync(resolved, 'utf8')).has(anchor)) {
    return `${target}: no such heading`;
  }
  return null;
}

function isOutside(resolved: string): boolean {
  const relative = path.relative(ROOT, resolved);
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
}

/** The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as `-`, repeats numbered. */
function headingAnchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = /^#{1,6}\s+(.*)$/.exec(line);
    if (fenced || !heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}
