import { ValidationError } from '../../src/errors';
import type { TemplateDefinition } from '../../src/catalog/template-definition';
import type { ImageDefinition } from '../../src/parts/image';
import { parseTemplateFile, serializeTemplateFile, validateTemplate } from '../../src/catalog/template-file';
import { normalizeType, TEMPLATE_TYPES } from '../../src/catalog/template-types';
import { bareImage } from '../../src/parts/image';

const WORDPRESS = `
name: Wordpress with MySQL
description: Wordpress and a database
keywords: wordpress, mysql, public
recommended: true
type: wordpress
documentation: |
  # Wordpress
  Runs Wordpress linked to MySQL.
authors:
  - Jane <jane@example.com>
images:
  - name: WP
    source: centurylink/wordpress:3.9.1
    description: the blog
    category: Web Tier
    type: Wordpress
    expose: [80]
    ports:
      - host_interface: 127.0.0.1
        host_port: 8080
        container_port: 80
        proto: tcp
      - host_port: "53"
        container_port: "53"
        proto: udp
    links:
      - service: DB
        alias: DB_1
    environment:
      - variable: DB_PASSWORD
        value: pass@word01
        required: true
      - variable: DB_NAME
        value: wordpress
    volumes:
      - host_path: /var/wp
        container_path: /var/www/html
      - container_path: /tmp/cache
    volumes_from:
      - service: DB
    command: /run.sh --verbose
    deployment:
      count: 2
  - name: DB
    source: centurylink/mysql:5.5
    environment:
      - variable: MYSQL_ROOT_PASSWORD
        value: pass@word01
`;

function image(overrides: Partial<ImageDefinition>): ImageDefinition {
  return { ...bareImage('web', 'nginx'), type: 'Default', ...overrides };
}

function template(overrides: Partial<TemplateDefinition>): TemplateDefinition {
  return {
    name: 't',
    description: null,
    keywords: null,
    type: 'Default',
    documentation: null,
    authors: [],
    source: null,
    images: [],
    ...overrides,
  };
}

function failure(run: () => unknown): ValidationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return error as ValidationError;
  }
  throw new Error('expected a ValidationError');
}

describe('template types', () => {
  test('27 types, Default first and marked as the default', () => {
    expect(TEMPLATE_TYPES).toHaveLength(27);
    expect(TEMPLATE_TYPES[0]).toEqual({ name: 'Default', default: true });
    expect(TEMPLATE_TYPES[1]).toEqual({ name: 'Wordpress' });
    expect(TEMPLATE_TYPES[26]).toEqual({ name: 'WAMP' });
  });

  test('a case-insensitive match is kept as given, anything else becomes Default', () => {
    expect(normalizeType('wordpress')).toBe('wordpress');
    expect(normalizeType('ODOO')).toBe('ODOO');
    expect(normalizeType('Cobol')).toBe('Default');
    expect(normalizeType('')).toBe('Default');
    expect(normalizeType(null)).toBe('Default');
  });
});

describe('parseTemplateFile', () => {
  test('reads every field of a template file', () => {
    expect(parseTemplateFile(WORDPRESS, 'wordpress.pmx')).toEqual({
      name: 'Wordpress with MySQL',
      description: 'Wordpress and a database',
      keywords: 'wordpress, mysql, public',
      type: 'wordpress',
      documentation: '# Wordpress\nRuns Wordpress linked to MySQL.\n',
      authors: ['Jane <jane@example.com>'],
      source: null,
      images: [
        {
          name: 'WP',
          source: 'centurylink/wordpress:3.9.1',
          description: 'the blog',
          category: 'Web Tier',
          type: 'Wordpress',
          command: '/run.sh --verbose',
          restart_policy: null,
          expose: ['80'],
          ports: [
            { host_interface: '127.0.0.1', host_port: 8080, container_port: 80, proto: 'TCP' },
            { host_port: '53', container_port: '53', proto: 'UDP' },
          ],
          links: [{ service: 'DB', alias: 'DB_1' }],
          environment: [
            { variable: 'DB_PASSWORD', value: 'pass@word01', required: true },
            { variable: 'DB_NAME', value: 'wordpress' },
          ],
          volumes: [{ host_path: '/var/wp', container_path: '/var/www/html' }, { container_path: '/tmp/cache' }],
          volumes_from: [{ service: 'DB' }],
          deployment: { count: 2 },
        },
        image({
          name: 'DB',
          source: 'centurylink/mysql:5.5',
          environment: [{ variable: 'MYSQL_ROOT_PASSWORD', value: 'pass@word01' }],
        }),
      ],
    });
  });

  test('JSON is YAML too', () => {
    const json = JSON.stringify({ name: 'j', images: [{ name: 'a', source: 'busybox', ports: [{ container_port: 80 }] }] });
    expect(parseTemplateFile(json, 'j.pmx')).toEqual(
      template({
        name: 'j',
        images: [image({ name: 'a', source: 'busybox', ports: [{ container_port: 80 }] })],
      }),
    );
  });

  test('lenient forms: keyword list, single author, link and volumes_from strings, env map, numeric name', () => {
    const text = `
name: 2048
keywords: [games, Puzzle]
authors: Someone
type: nonsense
images:
  - name: a
    source: busybox
    links: [b, "b2:other"]
    volumes_from: [b]
    environment: {A: 1, B: ~}
    expose: 8080
  - {name: b, source: busybox}
  - {name: b2, source: busybox}
`;
    expect(parseTemplateFile(text, 'x.pmx')).toEqual(
      template({
        name: '2048',
        keywords: 'games, Puzzle',
        authors: ['Someone'],
        images: [
          image({
            name: 'a',
            source: 'busybox',
            links: [
              { service: 'b', alias: 'b' },
              { service: 'b2', alias: 'other' },
            ],
            volumes_from: [{ service: 'b' }],
            environment: [
              { variable: 'A', value: '1' },
              { variable: 'B', value: '' },
            ],
            expose: ['8080'],
          }),
          image({ name: 'b', source: 'busybox' }),
          image({ name: 'b2', source: 'busybox' }),
        ],
      }),
    );
  });

  test('a single-quoted multi-line documentation with continuation lines at column 0: the text PyYAML and Psych read', () => {
    // The scalar starts on the line after its key, or behind an anchor, or under a quoted key. Each
    // expected text is what PyYAML 6.0 (`yaml.safe_load`) gives for the same file: a single line
    // break folds to a space, a blank line becomes a newline, `''` is one quote.
    const rest = 'images:\n  - name: web\n    source: busybox\n';
    const body = "# Notes\n\nRun it,\nthen browse to port 80.\n\n\nIt''s ready when\n  the journal says so.'\n";
    const cases: [string, string][] = [
      [
        `name: Notes\ndocumentation:\n  '${body}${rest}`,
        "# Notes\nRun it, then browse to port 80.\n\nIt's ready when the journal says so.",
      ],
      [
        `name: Notes\ndocumentation: &doc '${body}${rest}`,
        "# Notes\nRun it, then browse to port 80.\n\nIt's ready when the journal says so.",
      ],
      [`name: Notes\n"documentation": '${body}${rest}`, "# Notes\nRun it, then browse to port 80.\n\nIt's ready when the journal says so."],
    ];
    for (const [text, documentation] of cases) {
      const parsed = parseTemplateFile(text, 'notes.pmx');
      expect({ text, documentation: parsed.documentation, images: parsed.images }).toEqual({
        text,
        documentation,
        images: [image({ name: 'web', source: 'busybox' })],
      });
    }
  });

  test('an unknown top-level key is named', () => {
    const error = failure(() => parseTemplateFile('name: x\nimgaes: []\n', 'bad.pmx'));
    expect(error.message).toBe(
      'bad.pmx: unknown key "imgaes" (known keys: name, description, keywords, recommended, type, documentation, authors, source, images)',
    );
    expect(error.fields).toEqual(['imgaes']);
  });

  test('unknown image and port keys are named', () => {
    const text = 'name: x\nimages:\n  - {name: a, source: b, restart: always, ports: [{container_port: 80, host_prot: 8080}]}\n';
    const error = failure(() => parseTemplateFile(text, 'bad.pmx'));
    expect(error.message).toBe(
      'bad.pmx: images[0]: unknown key "restart" (known keys: name, source, description, category, type, expose, ports, ' +
        'links, environment, volumes, volumes_from, command, restart_policy, deployment); ' +
        'images[0].ports[0]: unknown key "host_prot" (known keys: host_interface, host_port, container_port, proto)',
    );
    expect(error.fields).toEqual(['images.restart', 'images.ports']);
  });

  test('wrong types are reported once, not again as blank', () => {
    const text = 'name: [a, b]\nimages: {name: x}\n';
    const error = failure(() => parseTemplateFile(text, 't.pmx'));
    expect(error.message).toBe('t.pmx: images: must be a list, got a mapping; name: must be a string, got a list');
    expect(error.fields).toEqual(['images', 'name']);
  });

  test('a document that is not a mapping, or not YAML', () => {
    expect(failure(() => parseTemplateFile('- a\n- b\n', 'l.pmx')).message).toBe(
      'l.pmx: a template file must be a YAML mapping (name, images, ...), got a list',
    );
    expect(failure(() => parseTemplateFile('', 'e.pmx')).message).toMatch(/^e\.pmx: a template file must be a YAML mapping/);
    expect(failure(() => parseTemplateFile('name: [unclosed\n', 'y.pmx')).message).toMatch(/^y\.pmx: not valid YAML: /);
  });
});

describe('validateTemplate', () => {
  test('a valid template passes', () => {
    expect(() => validateTemplate(parseTemplateFile(WORDPRESS, 'w.pmx'))).not.toThrow();
  });

  test('every rule, reported in one error', () => {
    const t = template({
      name: ' ',
      images: [
        image({
          name: 'web',
          source: 'nginx',
          links: [
            { service: 'db', alias: 'd' },
            { service: 'web', alias: 'self' },
            { service: 'cache', alias: '' },
          ],
          volumes_from: [{ service: 'nowhere' }, { service: 'web' }],
          ports: [
            { host_port: 80, container_port: 80 },
            { host_port: '81', container_port: '' },
          ],
          volumes: [{ host_path: '/x', container_path: '' }],
          expose: ['80', 'abc', '-1'],
          environment: [{ variable: '', value: 'v' }],
          deployment: { count: 1.5 },
        }),
        image({ name: '', source: '' }),
        image({
          name: 'web',
          source: 'x',
          ports: [
            { host_port: '80', container_port: 8080, proto: 'tcp' },
            { host_port: 80, container_port: 80, proto: 'UDP' },
          ],
        }),
        image({ name: 'cache', source: 'redis' }),
      ],
    });
    const error = failure(() => validateTemplate(t));
    expect(error.message.split('; ')).toEqual([
      "name: can't be blank",
      'images[0].links[0]: linked service "db" is not an image of this template',
      "images[0].links[1]: an image can't link to itself",
      "images[0].links[2]: link alias can't be blank",
      'images[0].volumes_from[0]: service "nowhere" exporting shared volumes is not an image of this template',
      "images[0].volumes_from[1]: an image can't mount its own volumes",
      "images[0].ports[1]: container port can't be blank",
      "images[0].volumes[0]: container path can't be blank",
      'images[0].expose[1]: "abc" is not a port number',
      'images[0].expose[2]: "-1" is not a port number',
      "images[0].environment[0]: variable can't be blank",
      'images[0].deployment.count: must be a whole number, 0 or more',
      "images[1].name: can't be blank",
      "images[1].source: can't be blank",
      'images[2].name: "web" is already the name of images[0]',
      'images[2].ports[0]: host port 80/TCP is already used by images[0].ports[0]',
    ]);
    expect(error.fields).toEqual([
      'name',
      'images.links',
      'images.volumes_from',
      'images.ports',
      'images.volumes',
      'images.expose',
      'images.environment',
      'images.deployment',
      'images.name',
      'images.source',
    ]);
  });

  test('the same host port on TCP and UDP may coexist; blank host ports are not compared', () => {
    const t = template({
      images: [
        image({
          ports: [
            { host_port: 53, container_port: 53 },
            { host_port: 53, container_port: 53, proto: 'udp' },
            { host_port: '', container_port: 1 },
            { host_port: null, container_port: 2 },
            { container_port: 3 },
          ],
        }),
      ],
    });
    expect(() => validateTemplate(t)).not.toThrow();
  });

  test('parse validates too: a link to a missing image', () => {
    const text = 'name: x\nimages:\n  - {name: a, source: b}\n  - {name: c, source: d, links: [{service: db, alias: db}]}\n';
    const error = failure(() => parseTemplateFile(text, 'x.pmx'));
    expect(error.message).toBe('x.pmx: images[1].links[0]: linked service "db" is not an image of this template');
    expect(error.fields).toEqual(['images.links']);
  });
});

describe('serializeTemplateFile', () => {
  test('the template-file form: key order, nulls kept at the top, empty image keys dropped, literal blocks', () => {
    const t = template({
      name: 'Demo',
      documentation: 'line one\nline two',
      type: 'Default',
      images: [
        image({
          name: 'web',
          source: 'nginx:1',
          description: 'The front',
          command: 'run',
          deployment: { count: 3 },
          ports: [{ container_port: 80, host_port: '8080', proto: 'TCP' }],
        }),
        image({ name: 'db', source: 'postgres', type: null, deployment: {} }),
      ],
    });
    expect(serializeTemplateFile(t)).toBe(`---
name: Demo
description: null
keywords: null
type: Default
documentation: |-
  line one
  line two
images:
  - name: web
    source: nginx:1
    description: The front
    type: Default
    ports:
      - host_port: "8080"
        container_port: 80
        proto: TCP
    command: run
    deployment:
      count: 3
  - name: db
    source: postgres
`);
  });

  test('round trip: parse(serialize(t)) equals t, except source and authors (image descriptions are kept)', () => {
    const original = { ...parseTemplateFile(WORDPRESS, 'w.pmx'), source: 'someone/templates' };
    const again = parseTemplateFile(serializeTemplateFile(original), 'again.pmx');
    expect(again).toEqual({
      ...original,
      source: null,
      authors: [],
    });
    expect(again.images.map((i) => i.description)).toEqual(original.images.map((i) => i.description));
  });

  test('round trip of awkward text', () => {
    const original = template({
      name: 'a: b # not a comment',
      description: '\'quoted\' "both"',
      keywords: 'yes, no, null',
      documentation: '  indented first line\n\ttab\ntrailing newlines\n\n',
      images: [
        image({ name: 'true', source: '123', command: 'sh -c "echo: hi"', expose: ['1'], environment: [{ variable: 'X', value: '' }] }),
      ],
    });
    expect(parseTemplateFile(serializeTemplateFile(original), 'x.pmx')).toEqual(original);
  });
});
