import { sortedRows } from './DataTableSort';

const rows = [
  { name: 'beta', sli: 99.5 },
  { name: 'Alpha', sli: null },
  { name: 'gamma', sli: 98 },
  { name: 'alpha 10', sli: 99.5 },
  { name: 'alpha 9', sli: 100 },
];
const columns = [
  { header: 'Name', sortValue: (row: (typeof rows)[number]) => row.name },
  { header: 'SLI', sortValue: (row: (typeof rows)[number]) => row.sli },
  { header: 'Note' },
];
const names = (sorted: readonly (typeof rows)[number][]) => sorted.map((row) => row.name);

it('sorts text in the reader’s order whatever the case, numbers within it by value', () => {
  expect(names(sortedRows(rows, columns, { column: 'Name', direction: 'ascending' }))).toEqual([
    'Alpha',
    'alpha 9',
    'alpha 10',
    'beta',
    'gamma',
  ]);
  expect(names(sortedRows(rows, columns, { column: 'Name', direction: 'descending' }))).toEqual([
    'gamma',
    'beta',
    'alpha 10',
    'alpha 9',
    'Alpha',
  ]);
});

it('sorts numbers by value, keeps equal rows in their order, and puts a row without a value last either way', () => {
  expect(names(sortedRows(rows, columns, { column: 'SLI', direction: 'ascending' }))).toEqual([
    'gamma',
    'beta',
    'alpha 10',
    'alpha 9',
    'Alpha',
  ]);
  expect(names(sortedRows(rows, columns, { column: 'SLI', direction: 'descending' }))).toEqual([
    'alpha 9',
    'beta',
    'alpha 10',
    'gamma',
    'Alpha',
  ]);
});

it('leaves the rows as given without a sort, or for a column that does not sort', () => {
  expect(sortedRows(rows, columns, null)).toBe(rows);
  expect(sortedRows(rows, columns, { column: 'Note', direction: 'ascending' })).toBe(rows);
});
