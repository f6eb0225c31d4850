#!/usr/bin/env node
// The Docker API socket the test kubelet (dockershim) talks to: a pass-through proxy to the shared
// engine that changes only `POST /containers/create` bodies:
// - a negative HostConfig.OomScoreAdj becomes 0. The kubelet asks -998 for every pod sandbox and
//   -997 for Guaranteed pods; runc then fails ("can't get final child's PID from pipe") because
//   this sandbox has no CAP_SYS_RESOURCE, which lowering oom_score_adj needs. Doing it here rather
//   than in a runc wrapper leaves the shared engine (and the other dockerds on the machine, which
//   find runc in the same PATH) untouched.
// - the label `platform-k8s=kubelet` is added, so .ci/k8s-down.sh removes exactly the containers
//   this kubelet made, whatever their name.
// Everything else, including hijacked exec/attach streams (`Upgrade: tcp`), goes through as is.
//
// usage: node k8s-docker-proxy.js LISTEN_SOCKET [ENGINE_SOCKET]
'use strict';
const { Buffer } = require('node:buffer');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const { setTimeout } = require('node:timers');

const [listen, engine = '/var/run/docker.sock'] = process.argv.slice(2);
if (!listen) {
  console.error('usage: k8s-docker-proxy.js LISTEN_SOCKET [ENGINE_SOCKET]');
  process.exit(2);
}
const CREATE = /^(\/v[0-9.]+)?\/containers\/create(\?|$)/;

function rewrite(body) {
  const spec = JSON.parse(body.toString('utf8'));
  if (spec.HostConfig && typeof spec.HostConfig.OomScoreAdj === 'number' && spec.HostConfig.OomScoreAdj < 0) {
    spec.HostConfig.OomScoreAdj = 0;
  }
  spec.Labels = { ...(spec.Labels || {}), 'platform-k8s': 'kubelet' };
  return Buffer.from(JSON.stringify(spec));
}

function forward(req, res, body) {
  const headers = { ...req.headers };
  if (body) {
    delete headers['transfer-encoding'];
    headers['content-length'] = String(body.length);
  }
  const upstream = http.request({ socketPath: engine, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode, answer.statusMessage, answer.headers);
    // Streams (logs -f, events, stats) are flushed as they come.
    if (typeof res.flushHeaders === 'function') res.flushHeaders();
    answer.pipe(res);
  });
  upstream.on('error', (error) => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: `platform-k8s docker proxy: ${error.message}` }));
  });
  res.on('close', () => upstream.destroy());
  if (body) upstream.end(body);
  else req.pipe(upstream);
}

const server = http.createServer((req, res) => {
  if (req.method === 'POST' && CREATE.test(req.url)) {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let body;
      try {
        body = rewrite(Buffer.concat(chunks));
      } catch {
        body = Buffer.concat(chunks); // not JSON: the engine answers the error
      }
      forward(req, res, body);
    });
  } else {
    forward(req, res, null);
  }
});

// exec/attach: the client asks `Connection: Upgrade, Upgrade: tcp` and then both sides speak raw
// bytes on the connection; the request head is replayed to the engine and the sockets joined.
server.on('upgrade', (req, socket, head) => {
  const upstream = net.connect(engine, () => {
    const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
    for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
    upstream.write(lines.join('\r\n') + '\r\n\r\n');
    if (head && head.length) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  const close = () => {
    socket.destroy();
    upstream.destroy();
  };
  upstream.on('error', close);
  socket.on('error', close);
  upstream.on('close', close);
  socket.on('close', close);
});
server.keepAliveTimeout = 0; // the kubelet's client keeps connections for as long as it likes
server.headersTimeout = 0;
server.requestTimeout = 0;

fs.rmSync(listen, { force: true });
server.listen(listen, () => {
  fs.chmodSync(listen, 0o660);
  console.log(`platform-k8s docker proxy: ${listen} -> ${engine}`);
});
const stop = () => {
  server.close(() => process.exit(0));
  setTimeout(() => process.exit(0), 1000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
