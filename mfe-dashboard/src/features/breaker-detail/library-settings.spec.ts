import { updateLibrarySettingsSchema } from '@cbh/contracts';
import { changedSettings, draftOf, librarySettingsProblems, numericSettings, settingText } from './library-settings';

const SETTINGS = { errorThresholdPercentage: 50, resetTimeout: 30_000, allowWarmUp: false, name: 'charge' };

it('offers the numeric settings only, in the order the breaker lists them', () => {
  expect(numericSettings(SETTINGS)).toEqual([
    ['errorThresholdPercentage', 50],
    ['resetTimeout', 30_000],
  ]);
  expect(numericSettings(null)).toEqual([]);
});

it('lets through what updateLibrarySettingsSchema takes of a value, and nothing it refuses', () => {
  for (const text of ['0', '30', '0.5', '1e3', '-1', '', ' ', 'half', 'Infinity']) {
    const formTakes = librarySettingsProblems({ resetTimeout: text }).resetTimeout === undefined;
    const schemaTakes = updateLibrarySettingsSchema.safeParse({ librarySettings: { resetTimeout: Number(text) } }).success;
    // an empty field is not 0: the form asks for a number where the schema would take Number('') as 0
    expect([text, formTakes]).toEqual([text, text.trim() !== '' && schemaTakes]);
  }
});

it('sends only the settings given a new value', () => {
  const settings = numericSettings(SETTINGS);
  expect(changedSettings(draftOf(settings), settings)).toEqual({});
  expect(changedSettings({ ...draftOf(settings), resetTimeout: '10000' }, settings)).toEqual({ resetTimeout: 10_000 });
  expect(changedSettings({ ...draftOf(settings), resetTimeout: '' }, settings)).toEqual({});
});

it("shows a library's unlimited default in words, every other value as it is", () => {
  expect(settingText(Number.MAX_SAFE_INTEGER)).toBe('no limit');
  expect(settingText(10_000)).toBe('10000');
  expect(settingText(true)).toBe('true');
  expect(settingText('count-based')).toBe('count-based');
});
