import { VERSION } from '../version';

/** The package version, which is the agent's version in GET /metadata. */
export const agentVersion: string = VERSION;
