import { expect } from '@jest/globals';
import { parseDescriptor, type DeployImage } from '../../src/agent/descriptor';
import { mergeImage } from '../../src/parts/merge';

describe('descriptor merge (ARCHITECTURE §5)', () => {
  test('environment by variable, ports by container_port as strings, volumes by path, deployment replaced, others replaced when given', () => {
    const merged = mergeImage<DeployImage>(
      {
        name: 'web',
        source: 'nginx:1',
        command: 'run',
        expose: ['80'],
        environment: [
          { variable: 'A', value: '1' },
          { variable: 'B', value: '2' },
        ],
        ports: [{ container_port: 80, host_port: 8080 }, { container_port: 443 }],
        volumes: [{ container_path: '/data', host_path: '/srv/a' }],
        links: [{ service: 'db', alias: 'db' }],
        deployment: { count: 2 },
      },
      {
        name: 'web',
        command: 'serve',
        environment: [
          { variable: 'B', value: 'two' },
          { variable: 'C', value: '3' },
        ],
        ports: [{ container_port: 80, host_port: 9090 }],
        volumes: [{ container_path: '/logs' }],
        deployment: { count: 5 },
      },
    );
    expect(merged).toEqual({
      name: 'web',
      source: 'nginx:1',
      command: 'serve',
      expose: ['80'],
      environment: [
        { variable: 'A', value: '1' },
        { variable: 'B', value: 'two' },
        { variable: 'C', value: '3' },
      ],
      ports: [{ container_port: 80, host_port: 9090 }, { container_port: 443 }],
      volumes: [{ container_path: '/data', host_path: '/srv/a' }, { container_path: '/logs' }],
      links: [{ service: 'db', alias: 'db' }],
      deployment: { count: 5 },
    });
  });

  test('numbers given as strings are normalised; nulls count as absent; the template id is kept', () => {
    const template = parseDescriptor({
      template: {
        id: '12',
        name: 'app',
        keywords: null,
        images: [
          { name: 'web', ports: [{ container_port: '80', host_port: '8080', proto: 'udp' }], environment: [{ variable: 'N', value: 3 }] },
        ],
      },
      override: { images: [{ name: 'web', ports: [{ container_port: 80, host_port: 81 }], deployment: { count: '2' } }] },
    });
    expect(template).toEqual({
      id: 12,
      name: 'app',
      images: [
        {
          name: 'web',
          ports: [{ container_port: 80, host_port: 81 }],
          environment: [{ variable: 'N', value: '3' }],
          deployment: { count: 2 },
        },
      ],
    });
  });

  test('count above the maximum is refused', () => {
    expect(() => parseDescriptor({ template: { images: [{ name: 'a', deployment: { count: 1000 } }] } })).toThrow(
      expect.objectContaining({ httpStatus: 422, fields: ['template.images[0].deployment.count'] }),
    );
  });
});
