import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { DomainError, errorBody } from '../errors';
import { defaultTooLarge, MAX_BODY_BYTES } from './request-body';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

/** Parser errors raised before any handler get the JSON error body, not node's empty or plain-text answers. */
const BY_CODE: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are too large.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive.'],
  HPE_HEADERS_TIMEOUT: [408, 'The request headers took too long to arrive.'],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, 'The chunk extensions are too large.'],
};

export function jsonErrorResponse(status: number, message: string, reason = ''): string {
  const body = JSON.stringify({ code: status, message, fields: '' });
  return (
    `HTTP/1.1 ${status} ${reason || STATUS_TEXT[status] || 'Error'}\r\n` +
    'Content-Type: application/json; charset=utf-8\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  404: 'Not Found',
  405: 'Method Not Allowed',
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

export function answerClientErrorsAsJson(server: Server, tooLarge: (limit: number) => DomainError = defaultTooLarge): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code === 'ECONNRESET') return void socket.destroy();
    const [status, message] = BY_CODE[error.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
    socket.end(jsonErrorResponse(status, message));
  });
  // Node's Host check answers an empty 400 (and is read per request, so off here); each door checks instead.
  (server as Server & { requireHostHeader: boolean }).requireHostHeader = false;
  // Without a listener node closes a CONNECT's socket without a word; no path here is a tunnel.
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    socket.end(jsonErrorResponse(405, 'CONNECT is not supported: this is not a proxy.'));
  });
  // Told 413 before it sends an oversized body: node would say 100 Continue to every such request.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (Number(req.headers['content-length']) > MAX_BODY_BYTES) {
      res.shouldKeepAlive = false;
      const body = JSON.stringify(errorBody(tooLarge(MAX_BODY_BYTES)));
      res.writeHead(413, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      return void res.end(body);
    }
    res.writeContinue();
    server.emit('request', req, res);
  });
  // Node answers an Expect other than 100-continue with an empty 417.
  server.on('checkExpectation', (req, res) => {
    const body = JSON.stringify({
      code: 417,
      message: `Expect: ${String(req.headers.expect).slice(0, 100)} is not supported.`,
      fields: 'expect',
    });
    res.writeHead(417, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      connection: 'close',
    });
    res.end(body);
  });
}
