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
    startCanary: build.mutation<ReleaseView, RemoteVersionRef & { percent: number }>({
      query: ({ remote, versionId, percent }) => ({ url: `/releases/${remote}/canary`, method: 'POST', body: { versionId, percent } }),
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
