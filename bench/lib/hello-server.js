'use strict';
// Scenario 4's baseline: npm start's node command (same flags, compiled JavaScript, no loader)
// answering /healthz, nothing else. PORT from the environment. JavaScript, as what npm start runs.
const { createServer } = require('node:http');

const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'));
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
