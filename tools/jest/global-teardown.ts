export default async function globalTeardown() {
  await (globalThis as { __embeddedPostgres?: { stop(): Promise<void> } }).__embeddedPostgres?.stop();
}
