export default async function globalTeardown() {
  const sites = (globalThis as { __sites?: { stop(): Promise<void> }[] }).__sites ?? [];
  await Promise.all(sites.map((site) => site.stop()));
}
