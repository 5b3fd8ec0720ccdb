/** @jest-environment <rootDir>/tools/jest/jsdom-environment.cjs */
import { useState } from 'react';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { Combobox, comboboxMatches, unknownNames } from './Combobox';

const BREAKERS = ['inventory', 'payments', 'payouts', 'agent:checkout/db'];
const unknown = (name: string) => `No breaker named ${name} yet: it will match once one exists.`;

/** The field as a form holds it, with what it last sent out. */
function Field({ unlisted = false }: { unlisted?: boolean }) {
  const [names, setNames] = useState<string[]>([]);
  return (
    <>
      <Combobox label="Breakers" value={names} onChange={setNames} options={unlisted ? undefined : BREAKERS} unknown={unknown} />
      <pre data-testid="value">{JSON.stringify(names)}</pre>
    </>
  );
}

const input = () => screen.getByRole('combobox', { name: 'Breakers' });
const value = () => JSON.parse(screen.getByTestId('value').textContent ?? '[]') as string[];
const typeText = (text: string) => fireEvent.change(input(), { target: { value: text } });
const press = (key: string) => fireEvent.keyDown(input(), { key });

it('suggests the known names containing what is typed, those starting with it first, leaving out the chosen ones', () => {
  expect(comboboxMatches(BREAKERS, [], 'pay')).toEqual(['payments', 'payouts']);
  expect(comboboxMatches(BREAKERS, ['Payments'], 'PAY')).toEqual(['payouts']);
  expect(comboboxMatches(BREAKERS, [], 'out')).toEqual(['payouts', 'agent:checkout/db']);
  expect(comboboxMatches(BREAKERS, [], 'a')).toEqual(['agent:checkout/db', 'payments', 'payouts']);
  expect(comboboxMatches(BREAKERS, [], '')).toEqual(BREAKERS);
  expect(unknownNames(BREAKERS, ['PAYMENTS', 'paymnts'])).toEqual(['paymnts']);
  expect(unknownNames(undefined, ['anything'])).toEqual([]);
});

it('picks a suggestion with the keyboard and shows it as a chip that can be removed', () => {
  render(<Field />);
  typeText('pay');
  expect(input().getAttribute('aria-expanded')).toBe('true');
  const list = screen.getByRole('listbox', { name: 'Breakers suggestions' });
  expect(
    within(list)
      .getAllByRole('option')
      .map((option) => option.textContent),
  ).toEqual(['payments', 'payouts']);
  press('ArrowDown');
  press('ArrowDown');
  expect(input().getAttribute('aria-activedescendant')).toBe(within(list).getAllByRole('option')[1]!.id);
  press('Enter');
  expect(value()).toEqual(['payouts']);
  expect((input() as HTMLInputElement).value).toBe('');
  fireEvent.click(screen.getByRole('button', { name: 'Remove payouts' }));
  expect(value()).toEqual([]);
});

it('picks a suggestion with a click, spelled as the list spells it', () => {
  render(<Field />);
  typeText('INV');
  fireEvent.click(screen.getByRole('option', { name: 'inventory' }));
  expect(value()).toEqual(['inventory']);
  typeText('Payments');
  press('Enter');
  expect(value()).toEqual(['inventory', 'payments']);
  expect(screen.queryByRole('status')?.textContent).toBe('');
});

it('takes a name the list does not hold only with a warning that says so', () => {
  render(<Field />);
  typeText('paymnts');
  expect(screen.getByText('None found: Enter takes “paymnts” as it is.')).toBeTruthy();
  press('Enter');
  expect(value()).toEqual(['paymnts']);
  expect(screen.getByRole('status').textContent).toBe('Warning: No breaker named paymnts yet: it will match once one exists.');
  expect(input().getAttribute('aria-describedby')).toBe(screen.getByRole('status').id);
});

it('takes comma-separated names at once, and what is typed when the field is left', () => {
  render(<Field />);
  typeText('payments, inventory');
  press('Enter');
  expect(value()).toEqual(['payments', 'inventory']);
  typeText('payouts');
  fireEvent.blur(input());
  expect(value()).toEqual(['payments', 'inventory', 'payouts']);
  press('Backspace');
  expect(value()).toEqual(['payments', 'inventory']);
});

it('takes names unjudged while the list cannot be read', () => {
  render(<Field unlisted />);
  typeText('anything');
  expect(input().getAttribute('aria-expanded')).toBe('false');
  press('Enter');
  expect(value()).toEqual(['anything']);
  expect(screen.getByRole('status').textContent).toBe('');
});

it('closes the list on Escape without letting the key reach a dialog around it', () => {
  const outer = jest.fn();
  render(
    <div onKeyDown={outer}>
      <Field />
    </div>,
  );
  typeText('pay');
  press('Escape');
  expect(input().getAttribute('aria-expanded')).toBe('false');
  expect(outer).not.toHaveBeenCalled();
});
