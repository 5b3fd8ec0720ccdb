import { PerTurn, toJsonBody } from './json-body';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('PerTurn', () => {
  it('builds once for every read of one turn of the event loop, and afresh in the next', async () => {
    let state = 1;
    let builds = 0;
    // the fuse far away: this is about turns, and a busy machine may pause longer than the 5 ms fuse between two reads
    const body = new PerTurn(() => {
      builds++;
      return toJsonBody({ state });
    }, 60_000);
    expect(JSON.parse(body.get().toString())).toEqual({ state: 1 });
    state = 2;
    // a read answered in the same turn was received before the first was built: it sees the same state
    expect(JSON.parse(body.get().toString())).toEqual({ state: 1 });
    expect(builds).toBe(1);
    await nextTurn();
    expect(JSON.parse(body.get().toString())).toEqual({ state: 2 });
    expect(builds).toBe(2);
  });

  it('builds again once the value is older than its fuse, even within one turn', () => {
    let builds = 0;
    const body = new PerTurn(() => ++builds);
    body.get();
    const until = performance.now() + 10;
    while (performance.now() < until) {
      // a long synchronous stretch, as in a check phase that outlives the turn
    }
    expect(body.get()).toBe(2);
  });
});
