export { type BreakerRef, HUB_LATENCY_BUCKETS_SECONDS, HUB_SERIES, UnsupportedIndicatorError, errorRatioExpr } from './hub-series';
export { FULL_DESCRIPTION_ANNOTATION, OPENSLO_DESCRIPTION_MAX, openSloDocument, toOpenSlo } from './openslo-export';
export { OpenSloImportError, fromOpenSlo, problemLine, type OpenSloProblem } from './openslo-import';
export { OPENSLO_KINDS, opensloSloSchema, type OpenSloSlo } from './openslo-schema';
export {
  SLO_ALERT_NAMES,
  prometheusRuleGroups,
  prometheusRules,
  sloLabels,
  type AlertingRule,
  type RecordingRule,
  type RuleGroup,
  type RuleOptions,
} from './prometheus-rules';
export { CBH_SOURCE_TYPE, dnsLabel, type SloDefinition } from './slo-definition';
