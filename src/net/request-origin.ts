import type { IncomingMessage } from 'node:http';

export interface RequestOrigin {
  door: 'rest' | 'graphql' | 'console' | 'legacy-ui' | 'webhook' | 'graphql-ws' | 'system';
  clientAddress: string | null;
  userAgent: string | null;
}

export type ClientAddressOf = (req: IncomingMessage) => string | null;

export function originOf(req: IncomingMessage, door: RequestOrigin['door'], clientAddress: ClientAddressOf): RequestOrigin {
  const agent = req.headers['user-agent'];
  return { door, clientAddress: clientAddress(req), userAgent: typeof agent === 'string' ? agent.slice(0, 300) : null };
}

export const SYSTEM_ORIGIN: RequestOrigin = { door: 'system', clientAddress: null, userAgent: null };
