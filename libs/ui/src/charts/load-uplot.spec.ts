/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
const made: string[] = [];
const madeWhenUPlotRan: string[][] = [];

jest.mock('uplot', () => {
  madeWhenUPlotRan.push([...made]);
  return { __esModule: true, default: function FakeUPlot() {} };
});

beforeEach(() => {
  const { NumberFormat, DateTimeFormat } = Intl;
  jest.spyOn(Intl, 'NumberFormat').mockImplementation((...args) => {
    made.push('NumberFormat');
    return new NumberFormat(...args);
  });
  jest.spyOn(Intl, 'DateTimeFormat').mockImplementation((...args) => {
    made.push('DateTimeFormat');
    return new DateTimeFormat(...args);
  });
});

it("makes Intl's first number and date formats in tasks of their own, before uPlot's module is evaluated", async () => {
  const { loadUPlot } = await import('./load-uplot');
  const loading = loadUPlot();
  // not in the caller's task (a render or an observer's callback)
  expect(made).toEqual([]);
  expect((await loading).name).toBe('FakeUPlot');
  expect(madeWhenUPlotRan).toEqual([['NumberFormat', 'DateTimeFormat']]);
  // a second chart's load warms nothing again
  await loadUPlot();
  expect(made).toEqual(['NumberFormat', 'DateTimeFormat']);
});
