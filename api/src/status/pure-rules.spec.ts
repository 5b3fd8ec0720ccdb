import { barsStart, dailyBars, uptimeOver } from './uptime';
import { clientKey } from './subscriptions.service';

const now = new Date('2026-11-29T12:00:00Z');
const at = (iso: string) => new Date(iso);

describe('daily bars', () => {
  it('gives 90 days, oldest first, null before the component existed and up since', () => {
    const bars = dailyBars({
      createdAt: at('2026-11-28T00:00:00Z'),
      changes: [{ state: 'operational', at: at('2026-11-28T00:00:00Z') }],
      incidents: [],
      componentId: 1,
      now,
    });
    expect(bars).toHaveLength(90);
    expect(bars[0]!.date).toBe(barsStart(now).toISOString().slice(0, 10));
    expect(bars.at(-1)!.date).toBe('2026-11-29');
    expect(bars.slice(0, 88).every((bar) => bar.uptime === null)).toBe(true);
    expect(bars.at(-2)!.uptime).toBe(1);
    expect(bars.at(-1)!.uptime).toBe(1);
  });

  it('counts a partial or major outage as down, degraded and maintenance as up, over the observed part of today', () => {
    const bars = dailyBars({
      createdAt: at('2026-11-01T00:00:00Z'),
      changes: [
        { state: 'operational', at: at('2026-11-01T00:00:00Z') },
        { state: 'partial_outage', at: at('2026-11-28T06:00:00Z') },
        { state: 'degraded', at: at('2026-11-28T12:00:00Z') },
        { state: 'major_outage', at: at('2026-11-29T00:00:00Z') },
        { state: 'operational', at: at('2026-11-29T03:00:00Z') },
      ],
      incidents: [],
      componentId: 1,
      now,
    });
    expect(bars.at(-2)).toMatchObject({ date: '2026-11-28', uptime: 0.75, worst: 'partial_outage' });
    // 3 of the 12 hours observed today
    expect(bars.at(-1)).toMatchObject({ date: '2026-11-29', uptime: 0.75, worst: 'major_outage' });
    expect(bars.at(-3)).toMatchObject({ uptime: 1, worst: 'operational' });
  });

  it('carries a state into the window from the change before it, and lists the day’s incidents of the component', () => {
    const bars = dailyBars({
      createdAt: at('2026-01-01T00:00:00Z'),
      changes: [{ state: 'major_outage', at: at('2026-01-01T00:00:00Z') }],
      incidents: [
        {
          id: 7,
          title: 'Payments down',
          impact: 'critical',
          componentIds: [1],
          createdAt: at('2026-11-27T10:00:00Z'),
          resolvedAt: at('2026-11-28T01:00:00Z'),
        },
        { id: 8, title: 'Elsewhere', impact: 'minor', componentIds: [2], createdAt: at('2026-11-27T10:00:00Z'), resolvedAt: null },
      ],
      componentId: 1,
      now,
    });
    expect(bars[0]!.uptime).toBe(0);
    expect(bars.at(-3)!.incidents).toEqual([{ id: 7, title: 'Payments down', impact: 'critical' }]);
    expect(bars.at(-2)!.incidents).toEqual([{ id: 7, title: 'Payments down', impact: 'critical' }]);
    expect(bars.at(-1)!.incidents).toEqual([]);
    expect(uptimeOver(bars, 30)).toBe(0);
  });
});

describe('subscription limits', () => {
  it('counts an IPv6 client by its /64 and an IPv4 client by its address', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientKey('192.0.2.7')).toBe('192.0.2.7');
  });
});
