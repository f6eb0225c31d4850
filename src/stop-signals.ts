import { constants } from 'node:os';

/** What stops a program: Ctrl-C, an orchestrator's or systemd's stop, a closed terminal. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type StopSignal = (typeof STOP_SIGNALS)[number];

let programStop: ((signal: StopSignal) => void) | undefined;
const cleanups = new Set<() => Promise<void>>();
let listening = false;
let signalled = false;

/**
 * The program's own graceful stop, from now on the one answer to a stop signal: the clean-ups
 * below stand down (the program's stop does them, in its order, and chooses the exit code).
 */
export function onStopSignal(stop: (signal: StopSignal) => void): void {
  programStop = stop;
  listen();
}

/**
 * Work to do when a stop signal comes before the program set its stop (a tool such as `npm run
 * token`, or a start not yet done); the process then exits 128 + the signal's number. Returns
 * its removal.
 */
export function cleanUpOnStopSignal(cleanup: () => Promise<void>): () => void {
  cleanups.add(cleanup);
  listen();
  return () => cleanups.delete(cleanup);
}

/**
 * A stop signal came before the program set its stop: a start that fails now failed because its
 * database was stopped under it, and the clean-ups exit; not a failure to report.
 */
export function stoppedWhileStarting(): boolean {
  return signalled;
}

function listen(): void {
  if (listening) return;
  listening = true;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (programStop) return programStop(signal);
      signalled = true;
      void Promise.allSettled([...cleanups].map((cleanup) => cleanup())).then(() => process.exit(128 + constants.signals[signal]));
    });
  }
}
