import { containerSpec, type ServiceDefinition } from '../../src/engines/container-spec';
import { shellWords } from '../../src/engines/shell-words';
import { ValidationError } from '../../src/errors';
import { bareService } from '../helpers/docker';

function service(overrides: Partial<ServiceDefinition> = {}): ServiceDefinition {
  return bareService('web', { image: 'nginx:1.25', ...overrides });
}

describe('containerSpec', () => {
  test('a service with everything becomes one create body', () => {
    const body = containerSpec(
      service({
        command: `sh -c 'echo "hi there"; sleep 1'`,
        environment: [
          { variable: 'A', value: '1' },
          { variable: 'EMPTY', value: null },
        ],
        ports: [
          { host_interface: '127.0.0.1', host_port: '8080', container_port: '80', proto: 'TCP' },
          { container_port: 53, proto: 'udp' },
          { host_port: 8443, container_port: 443 },
        ],
        expose: ['9000', 53],
        volumes: [{ host_path: '/srv/data', container_path: '/data' }, { container_path: '/cache' }],
        volumesFrom: ['db'],
        links: [{ service: 'db_1', alias: 'database' }],
        labels: { 'platform.app': '3' },
        network: { name: 'platform-app-3', aliases: ['web'] },
        restart: 'always',
      }),
    );
    expect(body).toEqual({
      Image: 'nginx:1.25',
      Cmd: ['sh', '-c', 'echo "hi there"; sleep 1'],
      Env: ['A=1', 'EMPTY='],
      Labels: { 'platform.app': '3' },
      ExposedPorts: { '80/tcp': {}, '53/udp': {}, '443/tcp': {}, '9000/tcp': {}, '53/tcp': {} },
      Volumes: { '/cache': {} },
      HostConfig: {
        PortBindings: {
          '80/tcp': [{ HostIp: '127.0.0.1', HostPort: '8080' }],
          '53/udp': [{ HostIp: '', HostPort: '' }],
          '443/tcp': [{ HostIp: '', HostPort: '8443' }],
        },
        Binds: ['/srv/data:/data'],
        VolumesFrom: ['db'],
        NetworkMode: 'platform-app-3',
        RestartPolicy: { Name: 'always' },
      },
      NetworkingConfig: {
        EndpointsConfig: { 'platform-app-3': { Aliases: ['web'], Links: ['db_1:database'] } },
      },
    });
  });

  test('a bare service keeps the image command and makes no network config', () => {
    expect(containerSpec(service({ command: '   ' }))).toEqual({
      Image: 'nginx:1.25',
      Env: [],
      Labels: {},
      ExposedPorts: {},
      Volumes: {},
      HostConfig: { PortBindings: {}, Binds: [], VolumesFrom: [] },
    });
  });

  test('two host bindings of one container port are both kept', () => {
    const body = containerSpec(
      service({
        ports: [
          { host_port: 80, container_port: 80 },
          { host_interface: '127.0.0.1', host_port: 8080, container_port: 80 },
        ],
      }),
    );
    expect(body.HostConfig.PortBindings).toEqual({
      '80/tcp': [
        { HostIp: '', HostPort: '80' },
        { HostIp: '127.0.0.1', HostPort: '8080' },
      ],
    });
  });

  test('without a network, links fall back to legacy links on the default bridge', () => {
    const body = containerSpec(service({ links: [{ service: 'db', alias: 'db' }] }));
    expect(body.HostConfig.Links).toEqual(['db:db']);
    expect(body.NetworkingConfig).toBeUndefined();
  });
});

describe('shellWords', () => {
  test.each([
    ['nginx -g "daemon off;"', ['nginx', '-g', 'daemon off;']],
    ["  a   'b c'  d ", ['a', 'b c', 'd']],
    ['echo a\\ b', ['echo', 'a b']],
    ['echo "a \\"q\\" \\\\ \\n"', ['echo', 'a "q" \\ \\n']],
    ['echo \'\\n\' ""', ['echo', '\\n', '']],
    ['x"y"z', ['xyz']],
    ['', []],
  ])('%s', (command, words) => {
    expect(shellWords(command)).toEqual(words);
  });

  test.each(['echo "open', "echo 'open", 'echo \\'])('%s is a 422 on command', (command) => {
    expect(() => shellWords(command)).toThrow(ValidationError);
    try {
      shellWords(command);
    } catch (error) {
      expect((error as ValidationError).fields).toEqual(['command']);
    }
  });
});
