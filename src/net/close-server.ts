import type { Server } from 'node:http';
import type { Server as HttpsServer } from 'node:https';

/**
 * Stops listening and closes each connection as soon as it is idle: a connection whose request
 * was in progress would otherwise stay open to its keep-alive timeout (65 s), and the stop with
 * it. With `drainMs`, connections still busy then are cut.
 */
export function closeServer(server: Server | HttpsServer, drainMs = Infinity): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = Number.isFinite(drainMs) ? setTimeout(() => server.closeAllConnections(), drainMs) : undefined;
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}
