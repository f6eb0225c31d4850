import type { Child } from './processes';

/** Request/response over a forked child's IPC channel (see agents-child.ts). */
export function ipcClient(child: Child): <T>(op: string, args?: unknown) => Promise<T> {
  let next = 0;
  const waiting = new Map<number, { resolve: (value: any) => void; reject: (error: Error) => void }>();
  child.process.on('message', (message: { id: number; result?: unknown; error?: string }) => {
    const entry = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.error) entry?.reject(new Error(message.error));
    else entry?.resolve(message.result);
  });
  void child.exited.then(() => {
    for (const entry of waiting.values()) entry.reject(new Error('the agents process exited'));
  });
  return (op, args) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, { resolve, reject });
      child.process.send({ id, op, args });
    });
}
