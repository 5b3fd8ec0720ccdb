/** The architecture catalogue of the Core Logic page: 14 layers, each with its purpose and examples. */
export const ARCHITECTURE_LAYERS = [
  {
    component: 'Core Logic',
    purpose: 'The rules of the domain, free of frameworks',
    examples: ['Breaker state machine', 'Permission rules', 'Validation'],
  },
  { component: 'API', purpose: 'The contract clients call', examples: ['REST endpoints', 'OpenAPI', 'Error shape'] },
  { component: 'Data', purpose: 'Durable state and its schema', examples: ['PostgreSQL', 'Migrations', 'Transactions'] },
  { component: 'Auth', purpose: 'Who is calling and what they may do', examples: ['Sessions', 'OpenID Connect', 'Roles'] },
  { component: 'Infrastructure', purpose: 'Where and how it runs', examples: ['Replicas', 'Gateway', 'Containers'] },
  { component: 'Messaging', purpose: 'Events between processes and clients', examples: ['LISTEN/NOTIFY', 'WebSocket', 'Fan-out'] },
  {
    component: 'Testing',
    purpose: 'Evidence that behaviour holds',
    examples: ['Property tests', 'Browser journeys', 'Differential tests'],
  },
  { component: 'Observability', purpose: 'Seeing what the system does', examples: ['Structured logs', 'Metrics', 'Audit trail'] },
  { component: 'Security', purpose: 'Keeping data and access safe', examples: ['CSP', 'Rate limits', 'SSRF guard'] },
  { component: 'AI/Analytics', purpose: 'Learning from what happened', examples: ['Failure trends', 'Anomaly hints', 'Reports'] },
  { component: 'Controllers', purpose: 'Receive requests and validate input', examples: ['Routing', 'Schemas', 'Status codes'] },
  { component: 'Services', purpose: 'Apply business logic', examples: ['Invitations', 'Load tests', 'Elevation'] },
  { component: 'Models', purpose: 'Structure and validate domain data', examples: ['Entities', 'DTOs', 'Invariants'] },
  { component: 'Repositories', purpose: 'Persist and load data', examples: ['Queries', 'Locks', 'Migrations'] },
] as const;

export const REQUEST_FLOW = [
  { step: 'Controllers', text: 'receive API requests and validate input' },
  { step: 'Services', text: 'apply business logic' },
  { step: 'Models', text: 'structure and validate domain data' },
  { step: 'Repositories', text: 'persist data' },
] as const;
