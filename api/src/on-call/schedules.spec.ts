import type { ScheduleView } from '@cbh/contracts';
import { apiForThisFile, DEMO_PASSWORD, signIn } from '../../test/test-api';
import { callsAs, json } from './on-call.test-kit';

const spec = apiForThisFile();
const as = (cookie: string) => callsAs(spec, cookie);

describe('on-call schedules', () => {
  it('keeps a schedule and answers who is on call at a moment, across the autumn DST change in its own time zone', async () => {
    const admin = as(spec.admin);
    const me = await json<{ id: string }>(admin('/api/auth/user'));
    const [other] = await spec.api.sql("SELECT id FROM users WHERE email <> 'root@example.com' ORDER BY email LIMIT 1");
    const created = await admin('/api/schedules', 'POST', {
      name: 'Payments primary',
      timeZone: 'Europe/Berlin',
      rotations: [{ users: [me.id, other.id], start: '2026-10-20T09:00', lengthHours: 'daily', handoffTime: '09:00' }],
    });
    expect(created.status).toBe(201);
    const schedule = await json<ScheduleView>(created);
    expect(schedule).toMatchObject({ name: 'Payments primary', timeZone: 'Europe/Berlin', overrides: [] });
    const onCall = async (at: string) =>
      (await json<{ user: { id: string } | null }>(admin(`/api/schedules/${schedule.id}/on-call?at=${at}`))).user?.id;
    // 24 October 09:00 CEST: the fifth shift; the 25th has 25 hours and hands over at 09:00 CET (08:00 UTC)
    expect(await onCall('2026-10-24T07:00:00Z')).toBe(me.id);
    expect(await onCall('2026-10-25T07:59:00Z')).toBe(me.id);
    expect(await onCall('2026-10-25T08:00:00Z')).toBe(other.id);
    expect(await onCall('2026-10-01T00:00:00Z')).toBeUndefined();

    const patched = await admin(`/api/schedules/${schedule.id}`, 'PATCH', {
      overrides: [{ user: other.id, start: '2026-10-24T00:00', end: '2026-10-25T00:00' }],
    });
    expect(patched.status).toBe(200);
    expect(await onCall('2026-10-24T07:00:00Z')).toBe(other.id);
    expect((await json<ScheduleView[]>(admin('/api/schedules'))).map((each) => each.name)).toEqual(['Payments primary']);
  });

  it('refuses an unknown person, a taken name, a bad zone, and changes by those who may not', async () => {
    const admin = as(spec.admin);
    const unknown = '6f1c2d3e-4b5a-4c6d-8e7f-901234567890';
    const body = { name: 'Nights', timeZone: 'UTC', rotations: [{ users: [unknown], start: '2026-11-01T00:00', lengthHours: 12 }] };
    expect((await admin('/api/schedules', 'POST', body)).status).toBe(422);
    expect((await admin('/api/schedules', 'POST', { ...body, name: 'payments PRIMARY', rotations: [] })).status).toBe(409);
    expect((await admin('/api/schedules', 'POST', { ...body, timeZone: 'Mars/Olympus' })).status).toBe(400);
    const viewer = as(await signIn(spec.api.baseUrl, 'viewer@example.com', DEMO_PASSWORD));
    expect((await viewer('/api/schedules', 'POST', { ...body, rotations: [] })).status).toBe(403);
    expect((await viewer('/api/schedules')).status).toBe(403);
    const [schedule] = await json<ScheduleView[]>(admin('/api/schedules'));
    expect((await admin(`/api/schedules/${schedule!.id}`, 'DELETE')).status).toBe(204);
    expect((await admin(`/api/schedules/${schedule!.id}`)).status).toBe(404);
  });
});

describe('a person’s calendar of their own shifts', () => {
  it('serves the shifts of the person whose secret address it is, and stops at once when revoked or made anew', async () => {
    const admin = as(spec.admin);
    const me = await json<{ id: string }>(admin('/api/auth/user'));
    const [other] = await spec.api.sql("SELECT id FROM users WHERE email <> 'root@example.com' ORDER BY email LIMIT 1");
    const today = new Date().toISOString().slice(0, 10);
    const created = await admin('/api/schedules', 'POST', {
      name: 'Calendar',
      timeZone: 'UTC',
      rotations: [{ users: [me.id, other.id], start: `${today}T00:00`, lengthHours: 'daily', handoffTime: '00:00' }],
    });
    expect(created.status).toBe(201);
    const { url } = await json<{ url: string }>(admin('/api/account/on-call-feed', 'POST'));
    expect(url).toMatch(/\/api\/public\/on-call\/ocf_[\w-]{32}\.ics$/);
    const path = new URL(url).pathname;
    const calendar = await spec.api.call(path, { cookie: null });
    expect(calendar.status).toBe(200);
    expect(calendar.headers.get('content-type')).toContain('text/calendar');
    const text = await calendar.text();
    expect(text).toContain('BEGIN:VCALENDAR');
    // every other day is mine over the next eight weeks: about 28 shifts, each a day long, and none of the other person's
    const events = text.split('BEGIN:VEVENT').length - 1;
    expect(events).toBeGreaterThanOrEqual(27);
    expect(events).toBeLessThanOrEqual(33);
    expect(text).toContain('SUMMARY:On call: Calendar');

    const renewed = await json<{ url: string }>(admin('/api/account/on-call-feed', 'POST'));
    expect((await spec.api.call(path, { cookie: null })).status).toBe(404);
    expect((await spec.api.call(new URL(renewed.url).pathname, { cookie: null })).status).toBe(200);
    expect((await admin('/api/account/on-call-feed', 'DELETE')).status).toBe(204);
    expect((await spec.api.call(new URL(renewed.url).pathname, { cookie: null })).status).toBe(404);
  });
});
