import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Errors node's HTTP parser raises before any handler runs (a header section over the limit, a
 * malformed request line, a bad header name, an Expect it cannot meet) get the same JSON error
 * body as everything else, instead of node's empty or plain-text answers.
 */
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
  417: 'Expectation Failed',
  431: 'Request Header Fields Too Large',
};

export function answerClientErrorsAsJson(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    if (error.code === 'ECONNRESET') return void socket.destroy();
    const [status, message] = BY_CODE[error.code ?? ''] ?? [400, 'The request is not valid HTTP.'];
    socket.end(jsonErrorResponse(status, message));
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
