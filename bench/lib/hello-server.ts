import { createServer } from 'node:http';

/**
 * Scenario 4's baseline: npm start's node command (tsx included) answering /healthz, nothing
 * else. PORT from the environment.
 */
const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
