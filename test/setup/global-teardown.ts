import { testDockerClient } from '../helpers/docker';
import { leaveTestSwarm } from '../helpers/swarm';

export default async function globalTeardown(): Promise<void> {
  // After every test file: leaving earlier drops the DNS records of other files' containers.
  await leaveTestSwarm(testDockerClient);
  await (globalThis as { __PG_STOP__?: () => Promise<void> }).__PG_STOP__?.();
}
