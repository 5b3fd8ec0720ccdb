export default async function globalTeardown() {
  await (globalThis as { __site?: { stop(): Promise<void> } }).__site?.stop();
}
