import type { Child } from './processes';

/** Request/response over a forked child's IPC channel (see agents-child.ts). */
export function ipcClient(child: Child): <T>(op: string, args?: unknown) => Promise<T> {
  let next = 0;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.process.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const entry = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) entry?.reject(new Error(message.error));
    else entry?.resolve(message.result);
  });
  void child.exited.then(() => {
    for (const entry of waiting.values()) entry.reject(new Error('the agents process exited'));
  });
  // The caller names the result type of its op: the child (agents-child.ts) is the other half of
  // this protocol, so its answer is taken as that type rather than parsed again.
  return <T>(op: string, args?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve: (value) => resolve(value as T), reject });
      child.process.send({ id, op, args });
    });
}
