import { useId, useRef, useState, type KeyboardEvent } from 'react';
import styled, { css } from 'styled-components';
import { controlStates, theme } from './theme';
import { VisuallyHidden } from './Table';

/** At most this many suggestions are listed at once; typing narrows them. */
const SHOWN = 50;

const Box = styled.div`
  position: relative;
  display: grid;
  gap: 6px;
  min-width: 0;
`;

const Field = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: 6px;
  padding: 4px 6px;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  background: ${theme.colors.surface};
  &:focus-within {
    outline: 2px solid ${theme.colors.primary};
    outline-offset: 1px;
  }
`;

const Input = styled.input`
  flex: 1 1 120px;
  min-width: 0;
  font: inherit;
  font-size: 14px;
  padding: 4px;
  border: none;
  background: transparent;
  color: ${theme.colors.text};
  &:focus {
    outline: none;
  }
`;

const Chip = styled.span<{ $unknown: boolean }>`
  display: inline-flex;
  align-items: center;
  gap: 2px;
  max-width: 100%;
  padding: 2px 2px 2px 8px;
  border-radius: 999px;
  font-size: 13px;
  border: 1px solid ${({ $unknown }) => ($unknown ? theme.colors.yellow : theme.colors.border)};
  background: ${({ $unknown }) => ($unknown ? '#fefce8' : theme.colors.current)};
  overflow-wrap: anywhere;
`;

const Remove = styled.button`
  display: inline-grid;
  place-items: center;
  min-width: 24px;
  min-height: 24px;
  border: none;
  border-radius: 999px;
  background: transparent;
  color: ${theme.colors.muted};
  font: inherit;
  cursor: pointer;
  &:hover {
    background: ${theme.colors.border};
  }
  ${controlStates}
`;

const List = styled.ul`
  position: absolute;
  top: 100%;
  left: 0;
  right: 0;
  z-index: 10;
  max-height: 240px;
  overflow-y: auto;
  margin: 4px 0 0;
  padding: 4px;
  list-style: none;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  background: ${theme.colors.surface};
  box-shadow: 0 8px 24px rgb(15 23 42 / 12%);
`;

const Option = styled.li<{ $active: boolean }>`
  padding: 8px 10px;
  border-radius: 4px;
  font-size: 14px;
  cursor: pointer;
  overflow-wrap: anywhere;
  ${({ $active }) =>
    $active &&
    css`
      background: ${theme.colors.current};
      outline: 1px solid ${theme.colors.primary};
    `}
`;

const Hint = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${theme.colors.muted};
`;

const Warning = styled.p`
  margin: 0;
  font-size: 13px;
  color: ${theme.colors.yellow};
`;

/** Whether `names` holds `name`, whatever the letter case (the hub compares names so). */
const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The suggestions for what is typed: known names containing it that are not chosen yet, those starting with it first. */
export function comboboxMatches(options: readonly string[], chosen: readonly string[], typed: string): string[] {
  const query = typed.trim().toLowerCase();
  const open = options.filter((option) => !chosen.some((name) => same(name, option)));
  if (!query) return open;
  const hits = open.filter((option) => option.toLowerCase().includes(query));
  return [
    ...hits.filter((option) => option.toLowerCase().startsWith(query)),
    ...hits.filter((option) => !option.toLowerCase().startsWith(query)),
  ];
}

/** The names of `chosen` that `options` does not hold; none while the options are not known. */
export function unknownNames(options: readonly string[] | undefined, chosen: readonly string[]): string[] {
  if (!options) return [];
  return chosen.filter((name) => !options.some((option) => same(option, name)));
}

/**
 * Several names picked from a list that searches as one types (ARIA's combobox with a listbox): the chosen ones
 * shown as chips with a remove button each. A name the list does not hold is still taken (on Enter, a comma or
 * leaving the field), as a thing may be named before it exists, but its chip is marked and `unknown(name)` says so
 * under the field. `options` undefined: the list cannot be read (no permission), so names are taken unjudged.
 */
export function Combobox({
  id: inputId,
  label,
  value,
  onChange,
  options,
  unknown,
  placeholder,
  describedBy,
  invalid,
}: {
  /** The input's id, for a visible <label htmlFor>. */
  id?: string;
  /** The field's accessible name. */
  label: string;
  value: readonly string[];
  onChange: (names: string[]) => void;
  options: readonly string[] | undefined;
  /** The warning for a chosen name `options` does not hold. */
  unknown: (name: string) => string;
  placeholder?: string;
  describedBy?: string;
  invalid?: boolean;
}) {
  const id = useId();
  const listId = `${id}-list`;
  const warningId = `${id}-warning`;
  const input = useRef<HTMLInputElement>(null);
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);

  const matches = options ? comboboxMatches(options, value, typed) : [];
  const shown = matches.slice(0, SHOWN);
  const warnings = unknownNames(options, value);
  const expanded = open && shown.length > 0;
  const noMatch = open && options !== undefined && shown.length === 0 && typed.trim() !== '';

  /** Adds each comma-separated name of `text` not chosen yet, spelled as the list spells it when it holds it. */
  const add = (text: string) => {
    const names = text
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean)
      .map((name) => options?.find((option) => same(option, name)) ?? name);
    const next = [...value];
    for (const name of names) if (!next.some((each) => same(each, name))) next.push(name);
    if (next.length !== value.length) onChange(next);
    setTyped('');
    setActive(-1);
  };
  const remove = (name: string) => {
    onChange(value.filter((each) => each !== name));
    input.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (shown.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + shown.length) % shown.length);
    } else if (event.key === 'Enter' || event.key === ',') {
      // Enter picks the highlighted suggestion, or takes what is typed; with nothing typed it submits the form
      const pick = active >= 0 ? shown[active] : typed;
      if (!pick?.trim()) return;
      event.preventDefault();
      add(pick);
    } else if (event.key === 'Escape' && expanded) {
      // closes the list, not the dialog around it
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
      setActive(-1);
    } else if (event.key === 'Backspace' && typed === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };

  return (
    <Box>
      <Field>
        {value.map((name) => {
          const isUnknown = warnings.includes(name);
          return (
            <Chip key={name} $unknown={isUnknown} data-testid="combobox-chip">
              {isUnknown ? <span aria-hidden="true">⚠ </span> : null}
              {name}
              <Remove type="button" aria-label={`Remove ${name}`} onClick={() => remove(name)}>
                ×
              </Remove>
            </Chip>
          );
        })}
        <Input
          ref={input}
          id={inputId}
          role="combobox"
          aria-label={label}
          aria-expanded={expanded}
          aria-controls={expanded ? listId : undefined}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${id}-option-${active}` : undefined}
          aria-describedby={[describedBy, warnings.length ? warningId : ''].filter(Boolean).join(' ') || undefined}
          aria-invalid={invalid || undefined}
          value={typed}
          placeholder={value.length === 0 ? placeholder : undefined}
          autoComplete="off"
          spellCheck={false}
          onChange={(event) => {
            setTyped(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            // what was typed and not picked is taken rather than lost (and warned about if unknown)
            if (typed.trim()) add(typed);
            setOpen(false);
          }}
          onKeyDown={onKeyDown}
        />
      </Field>
      {expanded ? (
        <List id={listId} role="listbox" aria-label={`${label} suggestions`}>
          {shown.map((option, index) => (
            <Option
              key={option}
              id={`${id}-option-${index}`}
              role="option"
              aria-selected={index === active}
              $active={index === active}
              // keeps the focus in the field, so picking does not take what was typed first
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => add(option)}
            >
              {option}
            </Option>
          ))}
        </List>
      ) : null}
      {open && matches.length > shown.length ? <Hint>{matches.length - shown.length} more: type to narrow.</Hint> : null}
      {noMatch ? <Hint>None found: Enter takes “{typed.trim()}” as it is.</Hint> : null}
      <div id={warningId} role="status">
        {warnings.map((name) => (
          <Warning key={name}>
            <VisuallyHidden>Warning: </VisuallyHidden>
            {unknown(name)}
          </Warning>
        ))}
      </div>
    </Box>
  );
}
