import type { ConfigFormat, ImportResult } from '@cbh/contracts';
import { api } from './api';

/** The address that downloads the hub's configuration document (the browser sends the session cookie along). */
export const exportUrl = (format: ConfigFormat) => `/api/export?format=${format}`;

export interface ImportConfigRequest {
  /** The document's text as uploaded or pasted. */
  document: string;
  /** application/json, or one of YAML_MEDIA_TYPES */
  contentType: string;
  /** only say what would change */
  dryRun: boolean;
  /** delete what the document leaves out */
  prune: boolean;
}

/** Configuration as code: the import's diff, and applying it. */
export const configApi = api.injectEndpoints({
  endpoints: (build) => ({
    importConfig: build.mutation<ImportResult, ImportConfigRequest>({
      query: ({ document, contentType, dryRun, prune }) => ({
        url: '/import',
        method: 'POST',
        params: { dryRun, prune },
        headers: { 'content-type': contentType },
        body: document,
      }),
      // a document holds notification channels, rules and windows too
      invalidatesTags: (_result, _error, { dryRun }) =>
        dryRun ? [] : ['Breakers', 'Services', 'Domains', 'Audit', 'NotificationChannels', 'NotificationRules', 'MaintenanceWindows'],
    }),
  }),
});

export const { useImportConfigMutation } = configApi;
