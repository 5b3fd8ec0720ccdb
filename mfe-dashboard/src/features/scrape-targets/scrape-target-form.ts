import type { NewScrapeTarget } from '@cbh/api-client';
import type { ScrapeTargetView, UpdateScrapeTarget } from '@cbh/contracts';
import { compact, urlProblem } from '../shared/form-checks';
import type { RecordForm } from '../shared/use-record-form';

/*
 * The scrape target form's checks, run as people type: what the form can tell without the schema's limits (which
 * live beside the schema, where the screens cannot import them without zod). The API judges the name's pattern and
 * the interval's range, and its refusal shows under the field it names.
 */

export interface ScrapeTargetDraft {
  name: string;
  url: string;
  /** Whole seconds as typed; empty on creation for the server's default. */
  intervalSeconds: string;
  bearerToken: string;
  /** Editing a target that has a token: send `bearerToken: null`. */
  removeToken: boolean;
}
export type ScrapeTargetField = 'name' | 'url' | 'intervalSeconds' | 'bearerToken';

/** The target dialog's form: its empty draft, its checks, and what it sends (see useRecordForm). */
export const SCRAPE_TARGET_FORM: RecordForm<ScrapeTargetDraft, ScrapeTargetField, ScrapeTargetView, NewScrapeTarget, UpdateScrapeTarget> = {
  fields: ['name', 'url', 'intervalSeconds', 'bearerToken'],
  empty: () => ({
    name: '',
    url: '',
    intervalSeconds: '',
    bearerToken: '',
    removeToken: false,
  }),
  /** An existing target in the edit form: its token is never sent back, so its field starts empty. */
  draftOf: (target) => ({
    ...SCRAPE_TARGET_FORM.empty(),
    name: target.name,
    url: target.url,
    intervalSeconds: String(target.intervalSeconds),
  }),

  problems(draft, creating) {
    const interval = draft.intervalSeconds.trim();
    return compact<ScrapeTargetField>({
      name: draft.name.trim() ? undefined : 'is required',
      url: draft.url.trim() ? urlProblem(draft.url) : 'is required',
      intervalSeconds:
        interval === '' && creating
          ? undefined
          : Number.isInteger(Number(interval)) && interval !== ''
            ? undefined
            : 'must be a whole number of seconds',
      bearerToken: undefined,
    });
  },

  toCreate(draft) {
    const interval = draft.intervalSeconds.trim();
    return {
      name: draft.name.trim(),
      url: draft.url.trim(),
      ...(interval ? { intervalSeconds: Number(interval) } : {}),
      ...(draft.bearerToken ? { bearerToken: draft.bearerToken } : {}),
    };
  },

  /** What the edit changes: each field that differs, and the token only if one was typed or its removal asked for. */
  toUpdate(draft, target) {
    const patch: UpdateScrapeTarget = {};
    if (draft.name.trim() !== target.name) patch.name = draft.name.trim();
    if (draft.url.trim() !== target.url) patch.url = draft.url.trim();
    if (Number(draft.intervalSeconds.trim()) !== target.intervalSeconds) patch.intervalSeconds = Number(draft.intervalSeconds.trim());
    if (draft.removeToken) patch.bearerToken = null;
    else if (draft.bearerToken) patch.bearerToken = draft.bearerToken;
    return patch;
  },
};
