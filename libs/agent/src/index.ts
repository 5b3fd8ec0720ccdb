export * from './rolling-window';
export * from './adapters/adapter';
export * from './adapters/opossum';
export * from './adapters/cockatiel';
export * from './adapters/cbh';
export * from './agent';
export { FAULTS_NOT_ALLOWED, InjectedFault, isInjectedFault, type ActiveFault, type FaultsChange } from './faults';
export * from './merge-reports';
export * from './hub-connection';
export type { WsClass } from './hub-stream';
// the protocol's words, for services outside this repository, which have no @cbh/contracts of their own
export {
  AGENT_FAULT_SILENCE_PERIODS,
  AGENT_PROTOCOL_LIMITS,
  AGENT_PROTOCOL_VERSION,
  AGENT_REPORT_EVERY_MS,
  AGENT_REPORTS_PATH,
  AGENT_STREAM_CLOSE,
  AGENT_STREAM_PATH,
  FAULT_KINDS,
  INJECTED_FAULT_NAME,
  type AgentBreakerControl,
  type AgentBreakerReport,
  type AgentBreakerSettings,
  type AgentCommand,
  type AgentFault,
  type AgentFaultsStatus,
  type AgentLatencyHistogram,
  type AgentLibrary,
  type AgentReport,
  type AgentReportReply,
  type AgentSettingsChange,
  type AgentStreamAnswer,
  type AgentTransition,
  type AgentWindow,
  type BreakerOverride,
  type BreakerSettings,
  type BreakerStateName,
  type FaultKind,
} from '@cbh/contracts';
