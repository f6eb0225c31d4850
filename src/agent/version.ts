import { VERSION } from '../version';

export const agentVersion: string = VERSION;
