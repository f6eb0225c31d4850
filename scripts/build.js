#!/usr/bin/env node
'use strict';
// `npm run build`: compiles src/, schema/ and rest/ to JavaScript in dist/ (tsc with
// tsconfig.build.json), copies the files the compiled code reads at run time (the REST
// operation documents), and bundles the web console (src/console, Vite) into dist/console.
// `--if-stale` (npm start's and npm run agent's pre-step) builds only when dist/ is missing or
// older than a source, so `npm install && npm start` works on a fresh clone and a start after
// `git pull` never runs yesterday's code. `--console` bundles the console alone (with
// `--if-stale`: only when src/console or the schema's possible types changed), for the console's tests. Plain JavaScript: it must run before
// anything is compiled, and without tsx.
const { spawnSync } = require('node:child_process');
const { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const DIST = path.join(ROOT, 'dist');
const STAMP = path.join(DIST, '.build-stamp');
/** What the compiled output depends on: a change to any of these makes dist/ stale. */
const INPUTS = ['src', 'schema', 'rest', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build.js'];
/** Non-TypeScript files the compiled code reads, relative to ROOT (copied to the same place under dist/). */
const ASSETS = ['rest/operations'];

function newestMtime(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its directory's mtime
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestMtime(path.join(file, entry)));
  return newest;
}

function isStale() {
  if (!existsSync(STAMP)) return true;
  const sources = INPUTS.map((input) => path.join(ROOT, input)).filter((input) => existsSync(input));
  // An image ships dist/ without the sources: nothing to compare with, nothing to rebuild from.
  if (!sources.some((input) => input.endsWith('src'))) return false;
  const built = statSync(STAMP).mtimeMs;
  return sources.some((input) => newestMtime(input) > built);
}

const CONSOLE = path.join(ROOT, 'src', 'console');
const CONSOLE_OUT = path.join(DIST, 'console', 'index.html');
/** Outside src/console, bundled into it: the schema's unions and interfaces, for the client's cache. */
const CONSOLE_INPUTS = [CONSOLE, path.join(ROOT, 'schema', 'possible-types.json')];

function buildConsole() {
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [ROOT] })), 'bin', 'vite.js');
  const result = spawnSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--config', path.join(CONSOLE, 'vite.config.mts')], {
    stdio: 'inherit',
    cwd: ROOT,
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  if (result.status !== 0) {
    process.stderr.write(`build: the web console's bundle failed (exit ${result.status ?? result.signal})\n`);
    rmSync(STAMP, { force: true });
    process.exit(1);
  }
}

function build() {
  rmSync(DIST, { recursive: true, force: true });
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  const result = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`build: tsc failed (exit ${result.status ?? result.signal}); dist/ is not usable\n`);
    rmSync(STAMP, { force: true });
    process.exit(1);
  }
  for (const asset of ASSETS) cpSync(path.join(ROOT, asset), path.join(DIST, asset), { recursive: true });
  buildConsole();
  mkdirSync(DIST, { recursive: true });
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}

if (process.argv.includes('--console')) {
  const stale = !existsSync(CONSOLE_OUT) || Math.max(...CONSOLE_INPUTS.map(newestMtime)) > statSync(CONSOLE_OUT).mtimeMs;
  if (!process.argv.includes('--if-stale') || stale) buildConsole();
} else if (process.argv.includes('--if-stale')) {
  if (isStale()) {
    process.stderr.write('build: dist/ is missing or older than the sources; compiling (npm run build)\n');
    build();
  }
} else {
  build();
}
