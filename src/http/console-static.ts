import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** Code without data, served to anyone: the page signs in before it reads anything. */
export interface ConsoleAssets {
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
}

interface Asset {
  body: Buffer;
  /** Compressed on the first request that accepts gzip, not at start-up. */
  gzip?: Buffer;
  type: string;
}

/** Nothing inline, nothing from another origin, never in a frame. */
export const CONSOLE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** Beside the compiled service (dist/src → dist/console), or dist/ when run from sources. */
export function defaultConsoleDir(): string {
  const candidates = [path.resolve(__dirname, '../../console'), path.resolve(__dirname, '../../dist/console')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? candidates[candidates.length - 1];
}

export function loadConsoleAssets(dir: string): ConsoleAssets | null {
  const indexFile = path.join(dir, 'index.html');
  if (!existsSync(indexFile)) return null;
  const index = asset(indexFile);
  const assets = new Map<string, Asset>();
  const assetsDir = path.join(dir, 'assets');
  if (existsSync(assetsDir)) {
    for (const name of readdirSync(assetsDir)) assets.set(`/assets/${name}`, asset(path.join(assetsDir, name)));
  }
  return {
    serve(req, res, pathname) {
      const isIndex = pathname === '/' || pathname === '/index.html';
      const found = isIndex ? index : assets.get(pathname);
      if (!found) return false;
      if (req.method !== 'GET' && req.method !== 'HEAD') return false;
      const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
      const body = gzip ? (found.gzip ??= gzipSync(found.body, { level: 9 })) : found.body;
      res.writeHead(200, {
        'content-type': found.type,
        'content-length': body.length,
        vary: 'accept-encoding',
        ...(gzip ? { 'content-encoding': 'gzip' } : {}),
        // The page names the current assets, so it is revalidated; an asset's name changes with its content.
        'cache-control': isIndex ? 'no-cache' : 'public, max-age=31536000, immutable',
        ...(isIndex ? { 'content-security-policy': CONSOLE_CSP } : {}),
        ...SECURITY_HEADERS,
      });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    },
  };
}

function asset(file: string): Asset {
  const body = readFileSync(file);
  return { body, type: TYPES[path.extname(file)] ?? 'application/octet-stream' };
}
