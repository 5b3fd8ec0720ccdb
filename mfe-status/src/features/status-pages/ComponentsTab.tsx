import { lazy, Suspense, useState } from 'react';
import styled from 'styled-components';
import { failureText, useUpdateStatusPageMutation } from '@cbh/api-client';
import { STATUS_PAGE_LIMITS, type StatusComponentInput, type StatusComponentView, type StatusPageView } from '@cbh/contracts';
import { Button, Card, Muted, ResponsiveTable, SpreadRow, SectionTitle, toast, type TableColumn } from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import { inputOf, moved } from './components-list';
import { ComponentStateBadge } from './StateBadge';

const ComponentDialog = lazy(() => import('./ComponentDialog').then((module) => ({ default: module.ComponentDialog })));

const Name = styled.span`
  display: grid;
  gap: 2px;
  small {
    color: inherit;
    opacity: 0.75;
  }
`;

const includes = (component: StatusComponentView) => {
  const parts = [`${component.breakers.length} breaker${component.breakers.length === 1 ? '' : 's'}`];
  if (component.domains.length) parts.push(`${component.domains.length} domain${component.domains.length === 1 ? '' : 's'}`);
  return parts.join(', ');
};

const COLUMNS: TableColumn<StatusComponentView>[] = [
  {
    header: 'Component',
    cell: (component) => (
      <Name>
        {component.name}
        {component.description ? <small>{component.description}</small> : null}
      </Name>
    ),
  },
  { header: 'Group', cell: (component) => component.group ?? '—', priority: 2 },
  { header: 'Includes', cell: includes, priority: 2 },
  { header: 'State now', cell: (component) => <ComponentStateBadge state={component.state} />, nowrap: true },
];

type Editing = { kind: 'add' } | { kind: 'edit' | 'remove'; index: number } | null;

/** The page's components, in the order the public page shows them: add, edit, move, remove. Each save sends the whole list. */
export function ComponentsTab({ page, domainAccess }: { page: StatusPageView; domainAccess: boolean }) {
  const [update, { isLoading }] = useUpdateStatusPageMutation();
  const [editing, setEditing] = useState<Editing>(null);
  const close = () => setEditing(null);
  const list = page.components.map(inputOf);

  const send = (components: StatusComponentInput[]) => update({ id: page.id, components }).unwrap();
  const sendOrSay = async (components: StatusComponentInput[], done: string) => {
    try {
      await send(components);
      toast({ title: 'Components Saved', description: done });
    } catch (error) {
      toast({ title: 'Error', description: failureText('The components could not be saved.', error), variant: 'destructive' });
    }
  };

  const full = page.components.length >= STATUS_PAGE_LIMITS.componentsPerPage;
  const add = (
    <Button onClick={() => setEditing({ kind: 'add' })} disabled={full} title={full ? 'A page holds at most 50 components' : undefined}>
      Add component
    </Button>
  );
  const editedIndex = editing && editing.kind !== 'add' ? editing.index : -1;
  const edited = list[editedIndex];

  return (
    <Card aria-labelledby="components-title">
      <SpreadRow $below={8}>
        <SectionTitle id="components-title">Components</SectionTitle>
        {add}
      </SpreadRow>
      <Muted>
        What the public page lists. A component&apos;s state follows its breakers and domains; an open incident sets it by hand.
      </Muted>
      <ResponsiveTable
        label="Components"
        rows={page.components}
        rowKey={(component) => String(component.id)}
        rowName={(component) => component.name}
        columns={COLUMNS}
        empty="No components yet: add one for each part of the service people use, and pick the breakers that guard it."
        actions={(component) => {
          const index = page.components.indexOf(component);
          return [
            { label: 'Edit', onSelect: () => setEditing({ kind: 'edit', index }) },
            {
              label: 'Move up',
              onSelect: () => void sendOrSay(moved(list, index, -1), `${component.name} moved up.`),
              disabledReason: index === 0 ? 'It is first already' : isLoading ? 'Saving…' : null,
            },
            {
              label: 'Move down',
              onSelect: () => void sendOrSay(moved(list, index, 1), `${component.name} moved down.`),
              disabledReason: index === list.length - 1 ? 'It is last already' : isLoading ? 'Saving…' : null,
            },
            { label: 'Remove', onSelect: () => setEditing({ kind: 'remove', index }), danger: true },
          ];
        }}
      />
      <Suspense fallback={null}>
        {editing?.kind === 'add' || (editing?.kind === 'edit' && edited) ? (
          <ComponentDialog
            key={editing.kind === 'add' ? 'add' : editedIndex}
            component={editing.kind === 'edit' ? edited : undefined}
            takenNames={list.filter((_, index) => index !== editedIndex).map((component) => component.name)}
            domainAccess={domainAccess}
            save={async (component) => {
              const next =
                editing.kind === 'add'
                  ? [...list, component]
                  : // the edited component keeps its id: a rename keeps its history and incidents
                    list.map((each, index) => (index === editedIndex ? { ...component, id: each.id } : each));
              await send(next);
              toast({ title: 'Components Saved', description: `${component.name} was ${editing.kind === 'add' ? 'added' : 'saved'}.` });
            }}
            onClose={close}
          />
        ) : null}
      </Suspense>
      {editing?.kind === 'remove' && edited ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? undefined : close())}
          title="Remove component"
          description={`Remove ${edited.name} from ${page.title}? The public page stops listing it, with its history.`}
          confirmLabel="Remove"
          pendingLabel="Removing..."
          pending={isLoading}
          onConfirm={async () => {
            await sendOrSay(
              list.filter((_, index) => index !== editedIndex),
              `${edited.name} was removed.`,
            );
            close();
          }}
        />
      ) : null}
    </Card>
  );
}
