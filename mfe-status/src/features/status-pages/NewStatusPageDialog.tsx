import { useState, type FormEvent } from 'react';
import { useCreateStatusPageMutation } from '@cbh/api-client';
import { STATUS_PAGE_LIMITS, STATUS_PAGE_SLUG, statusPagePath } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { CheckLabel, Fieldset, Form, FormField, TextArea, TextInput, toast } from '@cbh/ui';
import { Dialog } from '@cbh/ui/overlays';
import { refusalOf } from './field-problems';
import { FormEnd } from './form-kit';
import { slugOf } from './status-text';

const L = STATUS_PAGE_LIMITS;

/** What is wrong with a slug as typed, if anything (the API says the same). */
export function slugProblem(slug: string): string | undefined {
  if (!slug) return 'must not be empty';
  if (slug.length > L.slugLength) return `must be at most ${L.slugLength} characters`;
  if (!STATUS_PAGE_SLUG.test(slug)) return 'must be lower-case letters, digits and single hyphens, e.g. payments or eu-checkout';
  return undefined;
}

/** New status page: its title, its address (suggested from the title until typed), a description, public or not. */
export function NewStatusPageDialog({ onClose }: { onClose: () => void }) {
  const [create, { isLoading }] = useCreateStatusPageMutation();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const [slug, setSlug] = useState<string | null>(null);
  const [description, setDescription] = useState('');
  const [isPublic, setPublic] = useState(false);
  const [refused, setRefused] = useState<{ field?: string; problem: string } | null>(null);
  const [tried, setTried] = useState(false);

  const shownSlug = slug ?? slugOf(title, L.slugLength);
  const titleProblem = !title.trim()
    ? 'must not be empty'
    : title.trim().length > L.titleLength
      ? `must be at most ${L.titleLength} characters`
      : undefined;
  const problems = {
    title: (tried ? titleProblem : undefined) ?? (refused?.field === 'title' ? refused.problem : undefined),
    slug: (tried || slug !== null ? slugProblem(shownSlug) : undefined) ?? (refused?.field === 'slug' ? refused.problem : undefined),
    description:
      description.length > L.descriptionLength
        ? `must be at most ${L.descriptionLength} characters`
        : refused?.field === 'description'
          ? refused.problem
          : undefined,
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (titleProblem || slugProblem(shownSlug) || problems.description) return;
    try {
      const page = await create({
        title: title.trim(),
        slug: shownSlug,
        public: isPublic,
        ...(description.trim() ? { description: description.trim() } : {}),
      }).unwrap();
      toast({ title: 'Status Page Created', description: `${page.title} is at /status/${page.slug}. Add its components next.` });
      onClose();
      navigate(statusPagePath(page.id));
    } catch (error) {
      setRefused(refusalOf(error, ['title', 'slug', 'description', 'public']) ?? { problem: 'The status page could not be created.' });
    }
  };

  return (
    <Dialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title="New status page"
      description="You add its components once it exists."
    >
      <Form onSubmit={submit} aria-label="New status page" noValidate>
        <Fieldset disabled={isLoading}>
          <FormField label="Title" problem={problems.title}>
            {(described) => (
              <TextInput
                value={title}
                onChange={(event) => {
                  setTitle(event.target.value);
                  setRefused(null);
                }}
                maxLength={L.titleLength}
                placeholder="Payments"
                {...described}
              />
            )}
          </FormField>
          <FormField label="Slug" hint={`Its address: /status/${shownSlug || '…'}`} problem={problems.slug}>
            {(described) => (
              <TextInput
                value={shownSlug}
                onChange={(event) => {
                  setSlug(event.target.value.trim());
                  setRefused(null);
                }}
                autoComplete="off"
                spellCheck={false}
                placeholder="payments"
                {...described}
              />
            )}
          </FormField>
          <FormField label="Description" hint="Optional: a sentence above the components." problem={problems.description}>
            {(described) => <TextArea value={description} onChange={(event) => setDescription(event.target.value)} {...described} />}
          </FormField>
          <CheckLabel>
            <input type="checkbox" checked={isPublic} onChange={(event) => setPublic(event.target.checked)} />
            Public: anyone with the address may read it
          </CheckLabel>
          <FormEnd
            dialog
            refusal={refused && !refused.field ? refused.problem : null}
            submit={isLoading ? 'Creating...' : 'Create'}
            onCancel={onClose}
          />
        </Fieldset>
      </Form>
    </Dialog>
  );
}
