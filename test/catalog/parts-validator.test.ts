import { checkParts, checkPorts, hostPortKey, type PartsScope } from '../../src/parts/validator';
import { ValidationError } from '../../src/errors';
import { Problems } from '../../src/problems';

/** The one validator of container parts and the one problem collector, in each caller's phrasing. */
const templateScope = (extra: Partial<PartsScope> = {}): PartsScope => ({
  field: (part) => `images.${part}`,
  names: new Set(['web', 'db']),
  own: 'web',
  hostPorts: new Map(),
  ...extra,
});

const bad = {
  links: [
    { service: 'db', alias: 'd' },
    { service: 'db', alias: 'd' },
    { service: 'web', alias: 'me' },
    { service: 'nope', alias: '' },
    { service: ' ', alias: 'x' },
  ],
  volumes_from: [{ service: 'db' }, { service: 'db' }, { service: 'web' }, { service: 'gone' }, { service: '' }],
  ports: [{ container_port: '' }, { host_port: 80, container_port: 80 }, { host_port: '80', container_port: 81, proto: 'tcp' }],
  volumes: [{ container_path: '' }, { host_path: './rel', container_path: '/data' }],
  expose: ['80', 'http', 0, 65536],
  environment: [{ variable: '', value: 'x' }, { variable: 'A' }],
};

test('people phrasing: every problem of every part, in order, each with its field', () => {
  const problems = new Problems();
  checkParts(bad, 'images[0]', problems, templateScope());
  expect(problems.list.map((p) => `${p.field} | ${p.path}: ${p.message}`)).toEqual([
    'images.links | images[0].links[1]: "db" is linked more than once',
    'images.links | images[0].links[1]: alias "d" is used more than once',
    "images.links | images[0].links[2]: an image can't link to itself",
    'images.links | images[0].links[3]: linked service "nope" is not an image of this template',
    "images.links | images[0].links[3]: link alias can't be blank",
    "images.links | images[0].links[4]: linked service can't be blank",
    'images.volumes_from | images[0].volumes_from[1]: "db" is listed more than once',
    "images.volumes_from | images[0].volumes_from[2]: an image can't mount its own volumes",
    'images.volumes_from | images[0].volumes_from[3]: service "gone" exporting shared volumes is not an image of this template',
    "images.volumes_from | images[0].volumes_from[4]: service exporting shared volumes can't be blank",
    "images.ports | images[0].ports[0]: container port can't be blank",
    'images.ports | images[0].ports[2]: host port 80/TCP is already used by images[0].ports[1]',
    "images.volumes | images[0].volumes[0]: container path can't be blank",
    'images.expose | images[0].expose[1]: "http" is not a port number',
    'images.expose | images[0].expose[2]: "0" is not a port number',
    'images.expose | images[0].expose[3]: "65536" is not a port number',
    "images.environment | images[0].environment[0]: variable can't be blank",
  ]);
});

test('an app: relative host paths are refused; a service of an app is named as such', () => {
  const problems = new Problems();
  checkParts(bad, '', problems, {
    field: (part) => part,
    noun: 'a service',
    memberOf: 'a service of app 4',
    names: new Set(['web', 'db']),
    own: 'web',
    appVolumes: true,
  });
  const messages = problems.list.map((p) => `${p.path}: ${p.message}`);
  expect(messages).toContain("links[2]: a service can't link to itself");
  expect(messages).toContain('links[3]: linked service "nope" is not a service of app 4');
  expect(messages).toContainEqual(expect.stringMatching(/^volumes\[1\]: "\.\/rel" is a relative host path/));
  // Without a host port map, host ports are not compared.
  expect(messages.filter((m) => m.includes('already used'))).toEqual([]);
});

test('host ports are shared across every container checked with one map, TCP and UDP apart', () => {
  const hostPorts = new Map([['8080/TCP', 'service other']]);
  const problems = new Problems();
  const scope = templateScope({ hostPorts });
  checkPorts([{ host_port: 8080, container_port: 80 }], 'images[0]', problems, scope);
  checkPorts([{ host_port: 53, container_port: 53, proto: 'udp' }], 'images[1]', problems, scope);
  checkPorts([{ host_port: 53, container_port: 53 }], 'images[2]', problems, scope);
  checkPorts([{ host_port: '53', container_port: 53, proto: 'UDP' }], 'images[3]', problems, scope);
  expect(problems.list.map((p) => `${p.path}: ${p.message}`)).toEqual([
    'images[0].ports[0]: host port 8080/TCP is already used by service other',
    'images[3].ports[0]: host port 53/UDP is already used by images[1].ports[0]',
  ]);
  expect(hostPortKey({ host_port: ' 80 ', proto: null })).toBe('80/TCP');
});

test("interface B's phrasing: the member's full path, a predicate, typed ports and absolute paths", () => {
  const problems = new Problems();
  checkParts(
    {
      ports: [{ container_port: 'x', host_port: 70000, proto: 'SCTP' }],
      volumes: [{ container_path: 'data' }],
      environment: [{ variable: 'A' }],
      links: [{ service: 'db' }],
    },
    'template.images[0]',
    problems,
    { field: () => '', phrasing: 'descriptor', strictPorts: true, strictValues: true, names: new Set(['web']) },
  );
  expect(problems.list.map((p) => [p.field, p.message])).toEqual([
    ['template.images[0].links[0].service', 'names no image of the template ("db")'],
    ['template.images[0].links[0].alias', 'is required'],
    ['template.images[0].ports[0].container_port', 'must be a port number'],
    ['template.images[0].ports[0].host_port', 'must be a port number'],
    ['template.images[0].ports[0].proto', 'must be TCP or UDP'],
    ['template.images[0].volumes[0].container_path', 'must be an absolute path'],
    ['template.images[0].environment[0].value', 'is required'],
  ]);
});

describe('the collector', () => {
  test('nothing collected throws nothing', () => {
    expect(() => new Problems().throwIfAny()).not.toThrow();
  });

  test("people's form: path: message, joined; fields once each, in order; a path-less problem stands alone", () => {
    const problems = new Problems();
    problems.add('', "name can't be blank", 'name');
    problems.add('ports[0]', "container port can't be blank", 'ports');
    problems.add('ports[1]', 'host port 80/TCP is already used by ports[0]', 'ports');
    const error = problems.error();
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.message).toBe(
      "name can't be blank; ports[0]: container port can't be blank; ports[1]: host port 80/TCP is already used by ports[0]",
    );
    expect(error.fields).toEqual(['name', 'ports']);
  });

  test("interface B's form: a prefix, `field predicate`, at most five then how many more, a full stop", () => {
    const problems = new Problems();
    for (let i = 0; i < 7; i++) problems.add(`template.images[${i}].name`, 'is required');
    const error = problems.error({ prefix: 'The deployment descriptor is invalid: ', separator: ' ', limit: 5, suffix: '.' });
    expect(error.message).toBe(
      `The deployment descriptor is invalid: ${[0, 1, 2, 3, 4].map((i) => `template.images[${i}].name is required`).join('; ')} (and 2 more).`,
    );
    expect(error.fields).toHaveLength(7);
  });

  test('a whole document can answer for its parts (compose_yaml)', () => {
    const problems = new Problems();
    problems.add('services.web.ports[0]', '"x" is not a port number');
    const error = problems.error({ prefix: 'compose_yaml: ', fields: ['compose_yaml'] });
    expect([error.message, error.fields]).toEqual(['compose_yaml: services.web.ports[0]: "x" is not a port number', ['compose_yaml']]);
  });
});
