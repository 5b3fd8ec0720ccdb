/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createAppStore } from '@cbh/api-client';
import type { BreakerStateName, JournalEntry, JournalPage } from '@cbh/contracts';
import { clickAndSettle, fakeApi, journalEntry } from '@cbh/test-support';
import { JournalReplay } from './JournalReplay';

const entry = (id: number, from: BreakerStateName, to: BreakerStateName, reason: string, afterSeconds: number) =>
  journalEntry(id, from, to, reason, afterSeconds * 1000);

/** Oldest first. */
const JOURNAL = [
  entry(11, 'CLOSED', 'OPEN', '5 consecutive failures', 0),
  entry(12, 'OPEN', 'HALF_OPEN', 'open period of 30 s elapsed', 30),
  entry(14, 'HALF_OPEN', 'OPEN', 'trial call failed', 31),
  entry(15, 'OPEN', 'HALF_OPEN', 'open period of 30 s elapsed', 61),
  entry(19, 'HALF_OPEN', 'CLOSED', '3 trial call(s) succeeded', 62),
];
const newestFirst = (entries: JournalEntry[]) => [...entries].reverse();

/** The API's pages: the newest three, then (before=14) the two older ones. */
function journalApi() {
  const api = fakeApi({
    'GET /api/circuit-breakers/5/transitions': (): JournalPage => {
      // the handler runs right after its call is recorded: the last call says which page is asked for
      const before = new URL(api.calls.at(-1)!.path, 'http://test').searchParams.get('before');
      return before === '14'
        ? { transitions: newestFirst(JOURNAL.slice(0, 2)), nextBefore: null }
        : { transitions: newestFirst(JOURNAL.slice(2)), nextBefore: 14 };
    },
  });
  return api;
}

function renderReplay() {
  render(
    <Provider store={createAppStore()}>
      <JournalReplay configId={5} />
    </Provider>,
  );
}

const lit = () => screen.getByRole('listitem', { current: 'step' }).textContent;
const caption = () => screen.getByTestId('diagram-caption').textContent;
const counter = () => screen.getByTestId('replay-step').firstChild?.textContent;
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

it('starts before the first transition and replays every step on the diagram: the state it moved to, lit, with its reason', async () => {
  const api = journalApi();
  renderReplay();
  expect(await screen.findByText('Before step 1 of 3')).toBeTruthy();
  expect(lit()).toBe('HALF-OPEN');
  expect(caption()).toBe('Start of the journal');

  // the older page moves the start of the journal earlier
  await clickAndSettle(button('Load older transitions'));
  await waitFor(() => expect(counter()).toBe('Before step 1 of 5'));
  expect(api.callsTo('GET', '/api/circuit-breakers/5/transitions?before=14')).toHaveLength(1);
  expect(screen.queryByRole('button', { name: 'Load older transitions' })).toBeNull();
  expect(button('Previous').disabled).toBe(true);

  const seen: string[] = [];
  for (;;) {
    seen.push(`${counter()} | ${lit()} | ${caption()}`);
    if (button('Next').disabled) break;
    fireEvent.click(button('Next'));
  }
  expect(seen).toEqual([
    'Before step 1 of 5 | CLOSED | Start of the journal',
    'Step 1 of 5 | OPEN | 5 consecutive failures',
    'Step 2 of 5 | HALF-OPEN | open period of 30 s elapsed',
    'Step 3 of 5 | OPEN | trial call failed',
    'Step 4 of 5 | HALF-OPEN | open period of 30 s elapsed',
    'Step 5 of 5 | CLOSED | 3 trial call(s) succeeded',
  ]);

  const rows = within(screen.getByRole('list', { name: 'Transitions, newest first' })).getAllByRole('button');
  expect(rows).toHaveLength(5);
  // newest first: the last step is the top row, the journal's first move the bottom one
  expect(rows[4]!.textContent).toContain('CLOSED → OPEN');
  expect(rows[4]!.textContent).toContain('5 consecutive failures');
  expect(rows[4]!.textContent).toContain('replica 3f2a9c1e');
  expect(rows[0]!.textContent).toContain('HALF-OPEN → CLOSED');
  expect(rows[0]!.getAttribute('aria-current')).toBe('step');
  fireEvent.click(rows[2]!);
  expect(rows[2]!.getAttribute('aria-current')).toBe('step');
  expect(counter()).toBe('Step 3 of 5');
  fireEvent.click(button('Previous'));
  expect(lit()).toBe('HALF-OPEN');
  expect(caption()).toBe('open period of 30 s elapsed');
});

it('names the service instance a reported move happened on, in place of the replica', async () => {
  fakeApi({
    'GET /api/circuit-breakers/5/transitions': {
      transitions: [
        {
          ...entry(21, 'CLOSED', 'OPEN', 'errorThresholdPercentage of 50% reached', 0),
          instanceId: null,
          serviceInstance: 'checkout-7f9c',
        },
      ],
      nextBefore: null,
    },
  });
  renderReplay();
  const row = (await screen.findAllByRole('button', { name: /CLOSED → OPEN/ }))[0]!;
  expect(row.textContent).toContain('on checkout-7f9c');
  expect(row.textContent).not.toContain('replica');
});

it('steps with the arrow keys, switches speed and toggles Play and Pause', async () => {
  journalApi();
  renderReplay();
  await screen.findByText('Before step 1 of 3');
  fireEvent.keyDown(button('Next'), { key: 'ArrowRight' });
  fireEvent.keyDown(button('Next'), { key: 'ArrowRight' });
  expect(counter()).toBe('Step 2 of 3');
  expect(lit()).toBe('HALF-OPEN');
  fireEvent.keyDown(button('Previous'), { key: 'ArrowLeft' });
  expect(counter()).toBe('Step 1 of 3');
  expect(lit()).toBe('OPEN');

  expect(button('1×').getAttribute('aria-pressed')).toBe('true');
  fireEvent.click(button('10×'));
  expect(button('10×').getAttribute('aria-pressed')).toBe('true');
  expect(button('1×').getAttribute('aria-pressed')).toBe('false');
  fireEvent.click(button('Play'));
  fireEvent.click(button('Pause'));
  expect(button('Play')).toBeTruthy();
  expect(screen.getByText(/at most 5 s, so quiet hours do not stall the replay; 10× waits a tenth of that/)).toBeTruthy();
});

it('says so when the breaker has not moved yet', async () => {
  fakeApi({ 'GET /api/circuit-breakers/5/transitions': { transitions: [], nextBefore: null } });
  renderReplay();
  expect(await screen.findByText('No transitions yet')).toBeTruthy();
  expect(lit()).toBe('CLOSED');
  expect(screen.queryByRole('button', { name: 'Play' })).toBeNull();
});
