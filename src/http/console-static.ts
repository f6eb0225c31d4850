import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * The web console's built files (`npm run build` writes them to dist/console): `/` is its page,
 * `/assets/*` its scripts and styles, named by content hash. They are code without data, served
 * to anyone: the page signs in through /console/session before it reads anything.
 */
export interface ConsoleAssets {
  /** Answers the request when it is the console's, and says so. */
  serve(req: IncomingMessage, res: ServerResponse, pathname: string): boolean;
}

interface Asset {
  body: Buffer;
  /** Compressed on the first request that accepts gzip, not at start-up (about 30 ms for all). */
  gzip?: Buffer;
  type: string;
}

/**
 * What the page may load: its own scripts, styles and API, nothing inline, nothing from another
 * origin, never in a frame.
 */
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

/** Where the built console is: beside the compiled service (dist/src → dist/console), or dist/ when run from sources. */
export function defaultConsoleDir(): string {
  const candidates = [path.resolve(__dirname, '../../console'), path.resolve(__dirname, '../../dist/console')];
  return candidates.find((dir) => existsSync(path.join(dir, 'index.html'))) ?? candidates[candidates.length - 1];
}

/** Loads the built console once (a few hundred kilobytes); null when it is not built. */
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
        // The page is small and names the current assets: always revalidated. An asset's name
        // changes with its content: cached for good.
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
