import path from 'node:path';
import { defineConfig } from 'vite';

// The web console's build: `npm run build` (scripts/build.js) writes it to dist/console, which the
// service serves at `/` (src/http/console-static.ts). Assets are named by content hash.
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/console'),
    emptyOutDir: true,
    target: 'es2022',
    // No inline scripts or styles: the page runs under a CSP without 'unsafe-inline'.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  oxc: { jsx: { runtime: 'automatic' } },
});
