import { expect, test, type WebSocket as PageSocket } from './support/test';
import { Client } from 'pg';
import WebSocket from 'ws';
import { startGatewaySite } from './support/gateway-site';
import { signIn } from './support/sign-in';
import { ADMIN, sharedDatabaseUrl } from './support/server';
import { apiSignIn, createBreaker, siteApi } from './support/site-api';

/**
 * Two replicas of the production build behind the production gateway (Debian's nginx with deploy/nginx/), on the
 * site's database. The replica that holds a browser's /ws and drives a load test is killed outright (SIGKILL): the
 * browser reconnects through the gateway to the survivor, the load test is taken over and ends on time, and every
 * move the breaker announced is in the journal.
 */
test('kill -9 of the replica holding a browser’s /ws and a load test: the browser is back within 3 s, the test is taken over and no move is lost', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const site = await startGatewaySite();
  const { gateway, replicas } = site;
  const db = new Client({ connectionString: sharedDatabaseUrl() });
  await db.connect();
  let breakerId: number | undefined;
  let watcher: WebSocket | undefined;
  try {
    // the browser signs in and watches through the gateway
    const sockets: { socket: PageSocket; frames: number; createdAt: number; closedAt?: number }[] = [];
    page.on('websocket', (socket) => {
      const entry: (typeof sockets)[number] = { socket, frames: 0, createdAt: Date.now() };
      sockets.push(entry);
      socket.on('framereceived', () => entry.frames++);
      socket.on('close', () => (entry.closedAt = Date.now()));
    });
    await signIn(page, ADMIN, site.url);
    await page.goto(`${site.url}/circuit-breakers`);
    await expect(page.getByTestId('live-status')).toHaveText('Live');
    // the page's one open /ws (the home page's closed when the page changed), as nginx carries it to a replica
    const doomed = replicas[await site.wsCarrier()]!;
    const survivor = replicas.find((replica) => replica !== doomed)!;
    const lost = sockets.at(-1)!;

    // the doomed replica starts a load test through a breaker that keeps opening (it owns the test)
    const cookie = await apiSignIn(doomed);
    const breaker = await createBreaker(doomed, cookie, 'Killed under', { failureThreshold: 2, timeout: 5000 });
    breakerId = breaker.id;
    // every move announced on the fan-out, as a client of the survivor hears it
    const announced: { to: string; at: string; instanceId: string }[] = [];
    watcher = new WebSocket(`${survivor.url.replace('http', 'ws')}/ws`, { headers: { cookie, origin: site.url } });
    watcher.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'stateChange' && message.data.configId === breaker.id) announced.push(message.data);
    });
    await new Promise((resolve, reject) => watcher!.once('open', resolve).once('error', reject));
    const session = await (
      await siteApi(doomed, cookie, '/api/test-sessions', 'POST', { configId: breaker.id, failureRate: 100, requestRate: 20, duration: 1 })
    ).json();
    const doomedId = (await (await fetch(`${doomed.url}/api/health`)).json()).instance as string;
    const row = async () =>
      (await db.query('SELECT owner_instance, status, ends_at FROM test_sessions WHERE id = $1', [session.id])).rows[0] as {
        owner_instance: string;
        status: string;
        ends_at: Date;
      };
    expect((await row()).owner_instance).toBe(doomedId);
    // it should end 25 s from now; the replica that takes it over reads that from the row
    await db.query("UPDATE test_sessions SET ends_at = now() + interval '25 seconds' WHERE id = $1", [session.id]);
    const { ends_at: endsAt } = await row();
    await new Promise((resolve) => setTimeout(resolve, 1500));

    // what the Live indicator says, every change of it: the page may be back before a look at it would catch Offline
    await page.evaluate(() => {
      const said: string[] = [];
      (window as unknown as { liveSaid: string[] }).liveSaid = said;
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="live-status"]')?.textContent ?? '';
        if (said.at(-1) !== text) said.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    const killedAt = Date.now();
    await doomed.stop('SIGKILL');

    // while the killed replica is gone, nginx passes it over: every request through the gateway is answered
    for (let n = 0; n < 10; n++) expect((await fetch(`${site.url}/api/health`)).status).toBe(200);

    // the browser shows Offline, and is back through the gateway on the survivor within 3 s of the close
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { liveSaid: string[] }).liveSaid), { timeout: 5000 })
      .toContain('Offline');
    await expect.poll(() => sockets.length, { timeout: 5000 }).toBeGreaterThan(sockets.indexOf(lost) + 1);
    await expect(page.getByTestId('live-status')).toHaveText('Live');
    const reconnected = sockets.at(-1)!;
    expect(lost.closedAt).toBeGreaterThanOrEqual(killedAt);
    expect(reconnected.createdAt - lost.closedAt!).toBeLessThanOrEqual(3000);
    await expect.poll(() => gateway.openConnectionsTo(survivor.url)).toBe(1);
    // live messages arrive again on the new connection
    const heard = reconnected.frames;
    await expect.poll(() => reconnected.frames, { timeout: 5000 }).toBeGreaterThan(heard);

    // another replica takes the load test over within 15 s of the kill and ends it on time
    await expect.poll(async () => (await row()).owner_instance, { timeout: 15_000, intervals: [250] }).not.toBe(doomedId);
    const takenOver = Date.now() - killedAt;
    expect(takenOver).toBeLessThanOrEqual(15_000);
    test.info().annotations.push({
      type: 'measured',
      description: `reconnected ${reconnected.createdAt - lost.closedAt!} ms after the close; load test taken over ${takenOver} ms after the kill`,
    });
    await expect.poll(async () => (await row()).status, { timeout: 40_000 }).toBe('completed');
    const ended = Date.now();
    expect(ended).toBeLessThan(endsAt.getTime() + 3000);
    // no call after the end
    await new Promise((resolve) => setTimeout(resolve, 6000));
    const { rows } = await db.query(
      'SELECT coalesce(sum(success + failure + timeout + short_circuited + bulkhead_rejected), 0)::int AS calls FROM metric_buckets WHERE config_id = $1 AND second >= $2',
      [breaker.id, new Date(endsAt.getTime() + 1000)],
    );
    expect(rows[0].calls).toBe(0);

    // every announced move is in the journal, once
    expect(announced.length).toBeGreaterThanOrEqual(3);
    const { rows: journal } = await db.query('SELECT to_state, at, instance_id FROM breaker_transitions WHERE config_id = $1', [
      breaker.id,
    ]);
    const key = (move: { to: string; at: string; instanceId: string }) =>
      `${move.instanceId} ${move.to} ${new Date(move.at).toISOString()}`;
    const journalled = journal.map((entry) => key({ to: entry.to_state, at: entry.at, instanceId: entry.instance_id }));
    expect(new Set(journalled).size).toBe(journalled.length);
    expect(announced.map(key).filter((move) => !journalled.includes(move))).toEqual([]);
  } finally {
    watcher?.close();
    await page.close();
    await site.stop();
    if (breakerId !== undefined) await db.query('DELETE FROM circuit_breaker_configs WHERE id = $1', [breakerId]);
    await db.end();
  }
});
