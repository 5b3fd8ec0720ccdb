import { z } from 'zod';
import { COMPONENT_STATES, STATUS_PAGE_LIMITS, STATUS_PAGE_SLUG, type ComponentState } from './status-page-vocabulary';

/*
 * The bodies of POST/PATCH /api/status-pages: a page (slug, title, description, public) and its components, each
 * naming the hub's breakers and domains by id. The states and the rule that derives them are in
 * status-page-vocabulary.ts.
 */

const L = STATUS_PAGE_LIMITS;

const text = (max: number) =>
  z.string({ message: 'must be a string' }).trim().min(1, 'must not be empty').max(max, `must be at most ${max} characters`);

const ids = z
  .array(z.number({ message: 'must be a number' }).int('must be a whole number').positive('must be an id'), {
    message: 'must be a list of ids',
  })
  .max(L.membersPerComponent, `must hold at most ${L.membersPerComponent} ids`)
  .transform((list) => [...new Set(list)]);

export const statusComponentSchema = z.strictObject({
  name: text(L.nameLength),
  description: text(L.descriptionLength).optional(),
  group: text(L.groupLength).optional(),
  breakers: ids.default([]),
  domains: ids.default([]),
});

const slug = z
  .string({ message: 'must be a string' })
  .trim()
  .max(L.slugLength, `must be at most ${L.slugLength} characters`)
  .regex(STATUS_PAGE_SLUG, 'must be lower-case letters, digits and single hyphens, e.g. payments or eu-checkout');

const components = z
  .array(statusComponentSchema, { message: 'must be a list of components' })
  .max(L.componentsPerPage, `must hold at most ${L.componentsPerPage} components`)
  .refine((list) => new Set(list.map((component) => component.name.toLowerCase())).size === list.length, {
    message: 'must not name two components alike',
  });

const pageFields = {
  slug,
  title: text(L.titleLength),
  description: text(L.descriptionLength),
  public: z.boolean({ message: 'must be true or false' }),
  components,
};

/** POST /api/status-pages */
export const createStatusPageSchema = z.strictObject({
  ...pageFields,
  description: pageFields.description.optional(),
  components: components.default([]),
});

/** PATCH /api/status-pages/{id}: any field (no defaults: what is not sent stays); `components` replaces the list. */
export const updateStatusPageSchema = z
  .strictObject({ ...pageFields, description: pageFields.description.nullable() })
  .partial()
  .refine((value) => Object.keys(value).length > 0, { message: 'send at least one of slug, title, description, public, components' });

export type CreateStatusPage = z.infer<typeof createStatusPageSchema>;
export type UpdateStatusPage = z.infer<typeof updateStatusPageSchema>;
export type StatusComponentInput = z.infer<typeof statusComponentSchema>;

/** A state as a write names it (an incident setting a component's state by hand). */
export const componentStateSchema = z.enum(COMPONENT_STATES, { message: `must be one of ${COMPONENT_STATES.join(', ')}` });

/** A component as the API answers it: what it includes, and its state now. */
export interface StatusComponentView {
  id: number;
  name: string;
  description: string | null;
  group: string | null;
  breakers: number[];
  domains: number[];
  state: ComponentState;
}

export interface StatusPageView {
  id: number;
  slug: string;
  title: string;
  description: string | null;
  public: boolean;
  /** the worst of its components' states */
  state: ComponentState;
  components: StatusComponentView[];
  createdAt: string;
  updatedAt: string;
}
