import type { ReleaseView } from '@cbh/contracts';
import { api } from './api';

/** A remote and one of its versions, as the release actions take them. */
export interface RemoteVersionRef {
  remote: string;
  versionId: number;
}

/**
 * Remote releases (system_admin): each remote's uploaded versions, which one is live, a canary for a share of
 * visitors, rollback, and a pin that previews a version in the caller's own browser. Every change is audited.
 */
export const releasesApi = api.injectEndpoints({
  endpoints: (build) => ({
    getReleases: build.query<ReleaseView[], void>({ query: () => '/releases', providesTags: ['Releases'] }),
    promoteRelease: build.mutation<ReleaseView, RemoteVersionRef>({
      query: ({ remote, versionId }) => ({ url: `/releases/${remote}/promote`, method: 'POST', body: { versionId } }),
      invalidatesTags: ['Releases', 'Audit'],
    }),
    rollbackRelease: build.mutation<ReleaseView, string>({
      query: (remote) => ({ url: `/releases/${remote}/rollback`, method: 'POST' }),
      invalidatesTags: ['Releases', 'Audit'],
    }),
    /** `slos`: the SLOs the canary is judged by; left out of the body when not given. */
    startCanary: build.mutation<ReleaseView, RemoteVersionRef & { percent: number; slos?: number[] }>({
      query: ({ remote, versionId, percent, slos }) => ({
        url: `/releases/${remote}/canary`,
        method: 'POST',
        body: slos === undefined ? { versionId, percent } : { versionId, percent, slos },
      }),
      invalidatesTags: ['Releases', 'Audit'],
    }),
    abortCanary: build.mutation<ReleaseView, string>({
      query: (remote) => ({ url: `/releases/${remote}/canary/abort`, method: 'POST' }),
      invalidatesTags: ['Releases', 'Audit'],
    }),
    /** Sets the caller's pins cookie (HttpOnly, for a day); a null version ends the pin. The list does not change. */
    pinRelease: build.mutation<void, { remote: string; versionId: number | null }>({
      query: ({ remote, versionId }) => ({ url: `/releases/${remote}/pin`, method: 'POST', body: { versionId } }),
      invalidatesTags: ['Audit'],
    }),
  }),
});

export const {
  useGetReleasesQuery,
  usePromoteReleaseMutation,
  useRollbackReleaseMutation,
  useStartCanaryMutation,
  useAbortCanaryMutation,
  usePinReleaseMutation,
} = releasesApi;
