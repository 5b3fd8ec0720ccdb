/** Tables and the layout pieces of the data screens (users, domains). */
import { Children, type HTMLAttributes, type ReactNode } from 'react';
import styled from 'styled-components';
import { Muted } from './Card';
import { tableCells } from './table-cells';
import { theme } from './theme';

/**
 * Wide tables scroll sideways inside this box instead of widening the page on narrow screens. It is focusable
 * so keyboard users can scroll it too.
 */
export const ScrollArea = styled.div`
  /* the containing block of the visually hidden labels inside, so they scroll with the table instead of
     widening the page from their place at its far right */
  position: relative;
  max-width: 100%;
  overflow-x: auto;
  /* A shadow on each edge with more of the table beyond it, so a cut-off column reads as "scroll me" on a phone,
     whose scroll bars stay hidden until touched: the two white covers scroll with the table (local) and hide a
     shadow (fixed to the box) once its edge is reached. */
  background:
    linear-gradient(to right, ${theme.colors.surface} 30%, transparent) left / 40px 100% no-repeat local,
    linear-gradient(to left, ${theme.colors.surface} 30%, transparent) right / 40px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(15, 23, 42, 0.22), transparent) left / 14px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(15, 23, 42, 0.22), transparent) right / 14px 100% no-repeat scroll;
  background-color: ${theme.colors.surface};
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 2px;
  }
`;

export const Table = styled.table<{ $minWidth?: number }>`
  ${tableCells}
  min-width: ${({ $minWidth = 640 }) => $minWidth}px;
  th,
  td {
    padding: 10px 12px;
  }
  /* every row at least as tall as one holding a badge (40 px with its padding; a cell's height is its least): a table
     drawn while it loads, its one row saying so, keeps its height when a row of data with a badge replaces that one */
  td {
    height: 41px;
  }
`;

/** Text for screen readers only, e.g. which user a row's button acts on. */
export const VisuallyHidden = styled.span`
  position: absolute;
  width: 1px;
  height: 1px;
  padding: 0;
  margin: -1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
  border: 0;
`;

export const SectionTitle = styled.h2`
  margin: 0 0 12px;
  font-size: 18px;
`;

/** Cards side by side where `$min` px (200 unless told) each fit, one to a row (as wide as the screen) where not. */
export const CardGrid = styled.div<{ $min?: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(min(${({ $min = 200 }) => $min}px, 100%), 1fr));
  gap: 16px;
  margin-bottom: 24px;
`;

export const BadgeList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
  margin: 0;
  padding: 0;
  list-style: none;
`;

/**
 * A table with its column headings that scrolls sideways inside its own region, named by `label` (the region is
 * focusable so keyboard users can scroll it). The rows are the children; without any, `empty` says so in one row
 * across every column, so the headings still tell what the table would hold.
 */
export function DataTable({
  label,
  columns,
  minWidth,
  empty,
  children,
  ...rest
}: {
  label: string;
  columns: readonly string[];
  minWidth?: number;
  /** what the body says when there are no rows */
  empty?: ReactNode;
  children: ReactNode;
} & HTMLAttributes<HTMLDivElement>) {
  const rows =
    Children.toArray(children).length > 0 || empty === undefined ? (
      children
    ) : (
      <tr>
        <td colSpan={columns.length}>
          <Muted>{empty}</Muted>
        </td>
      </tr>
    );
  return (
    <ScrollArea role="region" aria-label={label} tabIndex={0} {...rest}>
      <Table $minWidth={minWidth}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{rows}</tbody>
      </Table>
    </ScrollArea>
  );
}
