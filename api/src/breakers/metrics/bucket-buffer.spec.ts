import type { MetricBucketCounts } from './metric-buckets.repository';
import { BucketBuffer } from './bucket-buffer';

const AT = Date.parse('2026-11-24T10:00:00Z');
const calls = (rows: MetricBucketCounts[]) => rows.map((row) => [row.configId, row.second.getTime() - AT, row.success + row.failure]);

describe('BucketBuffer', () => {
  it('keeps the counts through failed writes and then writes each bucket whole, once settled it forgets it', async () => {
    const buffer = new BucketBuffer();
    const writes: MetricBucketCounts[][] = [];
    const down = async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    };
    buffer.count(7, 'success', AT);
    buffer.count(7, 'failure', AT + 500);
    await expect(buffer.flush(down, AT + 900)).rejects.toThrow('ECONNREFUSED');
    buffer.count(7, 'success', AT + 1200);
    await expect(buffer.flush(down, AT + 1900)).rejects.toThrow('ECONNREFUSED');
    // back: everything counted through the outage, each bucket's whole count
    await buffer.flush(async (rows) => void writes.push(rows), AT + 2000);
    expect(writes.map(calls)).toEqual([
      [
        [7, 0, 2],
        [7, 1000, 1],
      ],
    ]);
    // a later call in a bucket already written rewrites that bucket whole (replaced, not added to)
    buffer.count(7, 'success', AT + 1300);
    await buffer.flush(async (rows) => void writes.push(rows), AT + 2100);
    expect(calls(writes[1]!)).toEqual([[7, 1000, 2]]);
    // nothing new: no write, and settled buckets leave memory
    await buffer.flush(async (rows) => void writes.push(rows), AT + 10_000);
    expect([writes.length, buffer.size]).toEqual([2, 0]);
  });

  it('drops the oldest buckets past its limit and says how many', () => {
    const buffer = new BucketBuffer(3);
    for (let second = 0; second < 5; second++) buffer.count(1, 'success', AT + second * 1000);
    expect([buffer.size, buffer.dropped]).toEqual([3, 2]);
  });
});
