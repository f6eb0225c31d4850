export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __PG_STOP__?: () => Promise<void> }).__PG_STOP__?.();
}
