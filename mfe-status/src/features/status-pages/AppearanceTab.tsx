import { useState, type FormEvent } from 'react';
import styled from 'styled-components';
import { failureText, useDeleteStatusPageMutation, useUpdateStatusPageMutation } from '@cbh/api-client';
import { ROUTES, STATUS_PAGE_LIMITS, type StatusPageView, type UpdateStatusPage } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import {
  Button,
  Card,
  CheckLabel,
  FieldRow,
  Fieldset,
  Form,
  FormField,
  Muted,
  Problem,
  SectionTitle,
  TextArea,
  TextInput,
  theme,
  toast,
  WrapRow,
} from '@cbh/ui';
import { ConfirmDialog } from '@cbh/ui/overlays';
import { refusalOf } from './field-problems';
import { slugProblem } from './NewStatusPageDialog';

const L = STATUS_PAGE_LIMITS;
const DEFAULT_ACCENT = '#2563eb';
const HEX = /^#[0-9a-fA-F]{6}$/;

const Stack = styled.div`
  display: grid;
  gap: 16px;
  min-width: 0;
`;
const Danger = styled(Card)`
  border-color: ${theme.colors.destructive};
  display: grid;
  gap: 12px;
  justify-items: start;
`;
const Swatch = styled.input`
  width: 44px;
  height: 36px;
  padding: 2px;
  border: 1px solid ${theme.colors.border};
  border-radius: 6px;
  background: ${theme.colors.surface};
`;

/** The page's title, description, address, visibility and accent colour; below them, deleting it. */
export function AppearanceTab({ page }: { page: StatusPageView }) {
  const [update, { isLoading: saving }] = useUpdateStatusPageMutation();
  const [remove, { isLoading: deleting }] = useDeleteStatusPageMutation();
  const navigate = useNavigate();
  const [title, setTitle] = useState(page.title);
  const [slug, setSlug] = useState(page.slug);
  const [description, setDescription] = useState(page.description ?? '');
  const [isPublic, setPublic] = useState(page.public);
  const [accent, setAccent] = useState(page.accentColor ?? '');
  const [refused, setRefused] = useState<{ field?: string; problem: string } | null>(null);
  const [confirming, setConfirming] = useState(false);

  const changes: UpdateStatusPage = {
    ...(title.trim() !== page.title ? { title: title.trim() } : {}),
    ...(slug !== page.slug ? { slug } : {}),
    ...(description.trim() !== (page.description ?? '') ? { description: description.trim() || null } : {}),
    ...(isPublic !== page.public ? { public: isPublic } : {}),
    ...(accent !== (page.accentColor ?? '') ? { accentColor: accent || null } : {}),
  };
  const problems = {
    title: !title.trim() ? 'must not be empty' : title.length > L.titleLength ? `must be at most ${L.titleLength} characters` : undefined,
    slug: slugProblem(slug),
    description: description.length > L.descriptionLength ? `must be at most ${L.descriptionLength} characters` : undefined,
    accentColor: accent && !HEX.test(accent) ? 'must be a colour such as #0b6bcb' : undefined,
  };
  const shown = (field: keyof typeof problems) => problems[field] ?? (refused?.field === field ? refused.problem : undefined);
  const valid = Object.values(problems).every((problem) => !problem);
  const unchanged = Object.keys(changes).length === 0;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid || unchanged) return;
    try {
      await update({ id: page.id, ...changes }).unwrap();
      setRefused(null);
      toast({ title: 'Status Page Saved', description: `${title.trim()} was saved.` });
    } catch (error) {
      setRefused(refusalOf(error, Object.keys(problems)) ?? { problem: 'The status page could not be saved.' });
    }
  };

  const confirmDelete = async () => {
    try {
      await remove(page.id).unwrap();
      toast({ title: 'Status Page Deleted', description: `${page.title} was deleted; /status/${page.slug} is gone.` });
      navigate(ROUTES.statusPages.path);
    } catch (error) {
      toast({ title: 'Error', description: failureText('The status page could not be deleted.', error), variant: 'destructive' });
      setConfirming(false);
    }
  };

  return (
    <Stack>
      <Card aria-labelledby="appearance-title">
        <SectionTitle id="appearance-title">Appearance</SectionTitle>
        <Form onSubmit={submit} aria-label="Appearance" noValidate>
          <Fieldset disabled={saving}>
            <FieldRow>
              <FormField label="Title" problem={shown('title')}>
                {(described) => <TextInput value={title} onChange={(event) => setTitle(event.target.value)} {...described} />}
              </FormField>
              <FormField
                label="Slug"
                hint={`Its address: /status/${slug}. Changing it breaks links to the old one.`}
                problem={shown('slug')}
              >
                {(described) => (
                  <TextInput
                    value={slug}
                    onChange={(event) => setSlug(event.target.value.trim())}
                    autoComplete="off"
                    spellCheck={false}
                    {...described}
                  />
                )}
              </FormField>
            </FieldRow>
            <FormField label="Description" hint="Shown under the title; leave empty for none." problem={shown('description')}>
              {(described) => <TextArea value={description} onChange={(event) => setDescription(event.target.value)} {...described} />}
            </FormField>
            <FormField label="Accent colour" hint="The page's header and links; empty for the hub's blue." problem={shown('accentColor')}>
              {(described) => (
                <WrapRow>
                  <TextInput
                    value={accent}
                    onChange={(event) => setAccent(event.target.value.trim())}
                    placeholder={DEFAULT_ACCENT}
                    {...described}
                  />
                  <Swatch
                    type="color"
                    aria-label="Pick the accent colour"
                    value={HEX.test(accent) ? accent : DEFAULT_ACCENT}
                    onChange={(event) => setAccent(event.target.value)}
                  />
                </WrapRow>
              )}
            </FormField>
            <CheckLabel>
              <input type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.target.checked)} />
              Public: anyone with the address may read it and subscribe
            </CheckLabel>
            {refused && !refused.field ? <Problem role="alert">{refused.problem}</Problem> : null}
            <div>
              <Button type="submit" disabled={!valid || unchanged}>
                {saving ? 'Saving...' : 'Save'}
              </Button>
            </div>
          </Fieldset>
        </Form>
      </Card>
      <Danger aria-labelledby="danger-title">
        <SectionTitle id="danger-title">Danger zone</SectionTitle>
        <Muted>Deleting the page removes its components, incidents and subscribers; its address stops answering.</Muted>
        <Button $variant="outline" onClick={() => setConfirming(true)}>
          Delete status page
        </Button>
      </Danger>
      {confirming ? (
        <ConfirmDialog
          open
          onOpenChange={(open) => (open ? undefined : setConfirming(false))}
          title="Delete status page"
          description={`Delete ${page.title}? Its components, incidents and subscribers go with it, and /status/${page.slug} stops answering. This cannot be undone.`}
          confirmLabel="Delete"
          pendingLabel="Deleting..."
          pending={deleting}
          onConfirm={confirmDelete}
        />
      ) : null}
    </Stack>
  );
}
