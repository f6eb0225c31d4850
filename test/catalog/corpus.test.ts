import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseTemplateFile, TemplateFileError } from '../../src/catalog/template-file';

/**
 * Every real template of the original ecosystem loads (test/fixtures: the official repo and the
 * files it later removed), including the files that need a leniency (README "Template files").
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const files = ['panamax-public-templates', 'panamax-public-templates-removed'].flatMap((dir) =>
  readdirSync(path.join(FIXTURES, dir))
    .filter((f) => f.endsWith('.pmx'))
    .map((f) => path.join(dir, f)),
);
const load = (file: string) => parseTemplateFile(readFileSync(path.join(FIXTURES, file), 'utf8'), file);

test('the fixtures are all there', () => {
  expect(files).toHaveLength(29);
});

test.each(files)('%s loads', (file) => {
  const template = load(file);
  expect(template.name.trim()).not.toBe('');
  expect(template.images.length).toBeGreaterThan(0);
  for (const image of template.images) expect(image.source.trim()).not.toBe('');
});

describe('leniencies, each on the real file that needs it', () => {
  test('a quoted documentation with unindented continuation lines and a --- rule inside (GrafanaApp.pmx)', () => {
    const template = load('panamax-public-templates-removed/GrafanaApp.pmx');
    expect(template.documentation).toMatch(/^# Grafana Application that uses InfluxDB and ElasticSearch\n## Pre-requisites/);
    // The `---` lines were Markdown rules inside the open quote, not document markers.
    expect(template.documentation).toContain('\n---\n## Grafana service The first time');
    expect(template.documentation).toContain('## Using Grafana with InfluxDB');
  });

  test('images named by repository + tag (GrafanaApp.pmx)', () => {
    expect(load('panamax-public-templates-removed/GrafanaApp.pmx').images.map((i) => [i.name, i.source])).toEqual([
      ['tutum_influxdb_1', 'tutum/influxdb:latest'],
      ['tutum_elasticsearch', 'tutum/elasticsearch:latest'],
      ['tutum_grafana_1', 'tutum/grafana:latest'],
    ]);
  });

  test('links naming an image by its source in service-name form (secure_docker_registry.pmx, gitlab_with_postgresql_+_redis.pmx)', () => {
    expect(load('panamax-public-templates/secure_docker_registry.pmx').images[1].links).toEqual([
      { service: 'registry090', alias: 'registry' },
    ]);
    expect(load('panamax-public-templates-removed/gitlab_with_postgresql_+_redis.pmx').images[2].links).toEqual([
      { service: 'PostgreSQL', alias: 'postgresql' },
      { service: 'Redis', alias: 'redisio' },
    ]);
  });

  test("a single-quoted documentation whose continuation lines start at column 0, and expose: ['', '9200']", () => {
    // The shape the original's UI saved (a template exported from Panamax, as its users' repos hold them).
    const text = [
      '---',
      'name: Elasticsearch',
      "documentation: '# Elasticsearch",
      '',
      "Run it, then browse to port 9200. It''s ready when the journal says so.",
      "'",
      'images:',
      '- name: elasticsearch',
      '  source: elasticsearch:1.4',
      "  expose: ['', '9200']",
      '',
    ].join('\n');
    expect(parseTemplateFile(text, 'es.pmx')).toMatchObject({
      documentation: "# Elasticsearch\nRun it, then browse to port 9200. It's ready when the journal says so. ",
      images: [{ name: 'elasticsearch', source: 'elasticsearch:1.4', expose: ['9200'] }],
    });
  });

  test('what stays refused: ambiguous or wrong files are reported with their line', () => {
    const ambiguous =
      'name: x\nimages:\n- name: a\n  source: redis:7\n- name: b\n  source: redis:7\n- name: c\n  source: app\n  links: [{service: redis_7, alias: r}]\n';
    let error: unknown;
    try {
      parseTemplateFile(ambiguous, 'a.pmx');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(TemplateFileError);
    expect((error as TemplateFileError).line).toBe(9);
    expect((error as Error).message).toBe('a.pmx: images[2].links[0]: linked service "redis_7" is not an image of this template');
    expect(() => parseTemplateFile("name: x\nimages: []\ndocumentation: 'never closed\n", 'b.pmx')).toThrow(/not valid YAML/);
  });
});
