import { expect } from '@jest/globals';
import { containerSpec } from '../../src/engines/container-spec';
import { bareService, describeDocker, removeByLabel, testDockerClient, testLabels } from '../helpers/docker';
import { useSwarm } from '../helpers/swarm';

/**
 * The swarm the test files share must not be left while other files' containers run: Docker
 * 20.10's `swarm leave` drops the embedded DNS records of running containers on local networks,
 * which made an app test's services stop resolving each other in CI.
 */
describeDocker('the shared test swarm', () => {
  const docker = testDockerClient();
  const labels = testLabels();
  const network = `platform-test-dns-${labels['platform.test']}`;

  afterAll(async () => {
    await removeByLabel(`platform.test=${labels['platform.test']}`);
    await docker.close();
  });

  const run = async (name: string, command: string) => {
    const spec = containerSpec(
      bareService(name, { command, labels, network: { name: network, aliases: [name.endsWith('-db') ? 'db' : 'probe'] } }),
    );
    const { Id } = await docker.createContainer(name, spec);
    await docker.startContainer(Id);
    return Id;
  };

  test("releasing it keeps other containers' names resolvable", async () => {
    await docker.createNetwork(network, labels);
    await run(`${network}-db`, 'sleep 300');
    const release = await useSwarm(docker);
    await release();
    const probe = await run(`${network}-probe`, 'nslookup db');
    expect(await docker.waitContainer(probe)).toBe(0);
  });
});
