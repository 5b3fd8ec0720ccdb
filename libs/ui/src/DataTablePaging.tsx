/** The search box and the pager of a table whose rows the server searches and pages. */
import { useEffect, useId, useRef, useState } from 'react';
import styled from 'styled-components';
import { Button } from './Button';
import { theme } from './theme';

/** How long the search waits after the last key before it asks the server. */
export const SEARCH_DELAY_MS = 300;

/** A page of a list the server pages: `page` counts from 1. */
export interface TablePaging {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
}

const SearchInput = styled.input`
  width: min(100%, 360px);
  min-height: 40px;
  padding: 8px 12px;
  font: inherit;
  font-size: 14px;
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  background: ${theme.colors.surface};
  &:focus-visible {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 1px;
  }
`;

const HiddenLabel = styled.label`
  position: absolute;
  width: 1px;
  height: 1px;
  overflow: hidden;
  clip: rect(0, 0, 0, 0);
  white-space: nowrap;
`;

/**
 * A search box that calls `onSearch` with its trimmed text once typing pauses (SEARCH_DELAY_MS), so a server is asked
 * once a word, not once a key.
 */
export function TableSearch({ label, placeholder, onSearch }: { label: string; placeholder?: string; onSearch: (text: string) => void }) {
  const [text, setText] = useState('');
  const id = useId();
  const latest = useRef(onSearch);
  latest.current = onSearch;
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const timer = setTimeout(() => latest.current(text.trim()), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <>
      <HiddenLabel htmlFor={id}>{label}</HiddenLabel>
      <SearchInput
        id={id}
        type="search"
        value={text}
        placeholder={placeholder ?? label}
        onChange={(event) => setText(event.target.value)}
      />
    </>
  );
}

const Bar = styled.nav`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 8px 16px;
  margin-top: 12px;
  font-size: 14px;
  color: ${theme.colors.muted};
`;

const Buttons = styled.div`
  display: flex;
  gap: 8px;
`;

/** "21–40 of 67" and the previous and next pages; nothing when every row fits on the one page. */
export function Pager({ label, paging }: { label: string; paging: TablePaging }) {
  const { page, pageSize, total, onPage } = paging;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (total <= pageSize && page === 1) return null;
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Bar aria-label={`${label} pages`}>
      <span role="status">
        {first}–{last} of {total}
      </span>
      <Buttons>
        <Button type="button" $variant="outline" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button type="button" $variant="outline" disabled={page >= pages} onClick={() => onPage(page + 1)}>
          Next
        </Button>
      </Buttons>
    </Bar>
  );
}
