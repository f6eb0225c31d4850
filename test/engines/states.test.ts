import type { ContainerInspect, ContainerState } from '../../src/engines/docker-types';
import { containerStatus, defaultExposedPorts, serviceState } from '../../src/engines/states';

const NEVER = '0001-01-01T00:00:00Z';

function inspect(
  state: Partial<ContainerState> & { Health?: { Status: string } },
  ports: ContainerInspect['NetworkSettings']['Ports'] = {},
): ContainerInspect {
  return {
    Id: 'abc123',
    Name: '/web',
    Created: '2026-11-21T10:00:00.123456789Z',
    Image: 'sha256:1',
    RestartCount: 0,
    State: {
      Status: 'created',
      Running: false,
      Paused: false,
      Restarting: false,
      Dead: false,
      ExitCode: 0,
      Error: '',
      StartedAt: NEVER,
      FinishedAt: NEVER,
      ...state,
    },
    Config: { Image: 'nginx:1.25', Tty: false, Env: [], Cmd: null, Labels: {} },
    HostConfig: {},
    NetworkSettings: { Ports: ports, Networks: {} },
  };
}

describe('serviceState', () => {
  test.each([
    ['no container', null, ['not-found', 'inactive', 'dead']],
    ['engine unreachable', 'unreachable' as const, [null, null, null]],
    ['pulling', 'pulling' as const, ['loaded', 'activating', 'start-pre']],
    ['created', inspect({ Status: 'created' }), ['loaded', 'inactive', 'dead']],
    [
      'health starting',
      inspect({ Status: 'running', Running: true, Health: { Status: 'starting' } }),
      ['loaded', 'activating', 'start-pre'],
    ],
    ['running', inspect({ Status: 'running', Running: true }), ['loaded', 'active', 'running']],
    ['restarting', inspect({ Status: 'restarting', Restarting: true }), ['loaded', 'activating', 'auto-restart']],
    ['exited 0', inspect({ Status: 'exited', ExitCode: 0 }), ['loaded', 'inactive', 'exited']],
    ['exited 1', inspect({ Status: 'exited', ExitCode: 1 }), ['loaded', 'failed', 'failed']],
    ['dead', inspect({ Status: 'dead', Dead: true }), ['loaded', 'failed', 'failed']],
  ])('%s', (_, observed, [load, active, sub]) => {
    expect(serviceState(observed)).toEqual({ load_state: load, active_state: active, sub_state: sub });
  });
});

describe('containerStatus', () => {
  test('no container is {}', () => {
    expect(containerStatus(null)).toEqual({});
  });

  test('an exited container with ports', () => {
    const info = inspect(
      { Status: 'exited', ExitCode: 3, StartedAt: '2026-11-21T10:00:01.5Z', FinishedAt: '2026-11-21T10:00:02.123456789Z' },
      {
        '80/tcp': [
          { HostIp: '127.0.0.1', HostPort: '8080' },
          { HostIp: '', HostPort: '8081' },
        ],
        '53/udp': null,
      },
    );
    expect(containerStatus(info)).toEqual({
      id: 'abc123',
      image: 'nginx:1.25',
      state: 'exited',
      status: 'Exited (3) at 2026-11-21T10:00:02.123Z',
      running: false,
      exit_code: 3,
      started_at: '2026-11-21T10:00:01.500Z',
      finished_at: '2026-11-21T10:00:02.123Z',
      ports: [
        { container_port: 53, proto: 'udp', host_interface: null, host_port: null },
        { container_port: 80, proto: 'tcp', host_interface: '127.0.0.1', host_port: 8080 },
        { container_port: 80, proto: 'tcp', host_interface: null, host_port: 8081 },
      ],
      info,
    });
  });

  test('a created container has no times and no exit code', () => {
    expect(containerStatus(inspect({ Status: 'created' }))).toMatchObject({
      state: 'created',
      status: 'Created',
      running: false,
      exit_code: null,
      started_at: null,
      finished_at: null,
      ports: [],
    });
  });
});

describe('defaultExposedPorts', () => {
  test('the image config keys, sorted; [] when unknown', () => {
    expect(defaultExposedPorts({ Id: 'x', RepoTags: [], Config: { ExposedPorts: { '443/tcp': {}, '80/tcp': {} } } })).toEqual([
      '443/tcp',
      '80/tcp',
    ]);
    expect(defaultExposedPorts({ Id: 'x', RepoTags: [], Config: null })).toEqual([]);
    expect(defaultExposedPorts(null)).toEqual([]);
  });
});
