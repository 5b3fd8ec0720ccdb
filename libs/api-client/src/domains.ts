import type {
  DnsRecordView,
  DomainAlertView,
  DomainDetailView,
  DomainMonitoringView,
  DomainSummaryView,
  DomainVerificationView,
  DomainView,
  SslCertificateView,
} from '@cbh/contracts';
import { api } from './api';

/**
 * Domains and what their checks found. 'DomainChecks' marks what every finished round changes (the monitoring
 * list, a domain's detail with its recent checks); 'Domains' marks the rest, which changes when someone changes a
 * domain or a round finds something new (live.ts says which message refreshes which).
 */
export const domainsApi = api.injectEndpoints({
  endpoints: (build) => ({
    getDomains: build.query<DomainView[], void>({ query: () => '/domains', providesTags: ['Domains'] }),
    getDomainSummary: build.query<DomainSummaryView, void>({ query: () => '/domain-summary', providesTags: ['Domains'] }),
    getDomain: build.query<DomainDetailView, number>({ query: (id) => `/domains/${id}`, providesTags: ['Domains', 'DomainChecks'] }),
    getDomainVerifications: build.query<DomainVerificationView[], void>({
      query: () => '/domain-verifications',
      providesTags: ['Domains'],
    }),
    getSslCertificates: build.query<SslCertificateView[], void>({ query: () => '/ssl-certificates', providesTags: ['Domains'] }),
    getDnsRecords: build.query<DnsRecordView[], void>({ query: () => '/dns-records', providesTags: ['Domains'] }),
    getDomainMonitoring: build.query<DomainMonitoringView[], void>({
      query: () => '/domain-monitoring',
      providesTags: ['Domains', 'DomainChecks'],
    }),
    getDomainAlerts: build.query<DomainAlertView[], void>({ query: () => '/domain-alerts', providesTags: ['Domains'] }),
    addDomain: build.mutation<DomainView, { domain: string }>({
      query: (body) => ({ url: '/domains', method: 'POST', body }),
      invalidatesTags: ['Domains'],
    }),
    deleteDomain: build.mutation<void, number>({
      query: (id) => ({ url: `/domains/${id}`, method: 'DELETE' }),
      invalidatesTags: ['Domains'],
    }),
    verifyDomain: build.mutation<DomainVerificationView, number>({
      query: (id) => ({ url: `/domains/${id}/verify`, method: 'POST' }),
      invalidatesTags: ['Domains'],
    }),
    resolveDomainAlert: build.mutation<DomainAlertView, number>({
      query: (id) => ({ url: `/domain-alerts/${id}/resolve`, method: 'POST' }),
      invalidatesTags: ['Domains'],
    }),
    setCertificateAutoRenew: build.mutation<SslCertificateView, { id: number; autoRenew: boolean }>({
      query: ({ id, autoRenew }) => ({ url: `/ssl-certificates/${id}`, method: 'PATCH', body: { autoRenew } }),
      invalidatesTags: ['Domains'],
    }),
  }),
});

export const {
  useGetDomainsQuery,
  useGetDomainSummaryQuery,
  useGetDomainQuery,
  useGetDomainVerificationsQuery,
  useGetSslCertificatesQuery,
  useGetDnsRecordsQuery,
  useGetDomainMonitoringQuery,
  useGetDomainAlertsQuery,
  useAddDomainMutation,
  useDeleteDomainMutation,
  useVerifyDomainMutation,
  useResolveDomainAlertMutation,
  useSetCertificateAutoRenewMutation,
} = domainsApi;
