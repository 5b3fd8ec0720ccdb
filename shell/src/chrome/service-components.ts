export type ComponentStatus = 'active' | 'monitoring' | 'inactive';

export interface ServiceComponent {
  slug: string;
  label: string;
  status: ComponentStatus;
}

export interface ServiceComponentGroup {
  category: string;
  components: ServiceComponent[];
}

/** The 15 service components of the 'Service Logic' sidebar, each linked at its servicePath. */
export const SERVICE_COMPONENT_GROUPS: ServiceComponentGroup[] = [
  {
    category: 'Core Logic',
    components: [
      { slug: 'core', label: 'Service Layer', status: 'active' },
      { slug: 'error-handling', label: 'Error Handling', status: 'active' },
      { slug: 'middleware', label: 'Middleware', status: 'active' },
      { slug: 'background-tasks', label: 'Background Tasks', status: 'active' },
    ],
  },
  {
    category: 'Data Management',
    components: [
      { slug: 'data-access', label: 'Data Access Layer', status: 'active' },
      { slug: 'schema', label: 'Schema Registry', status: 'active' },
      { slug: 'cache', label: 'Cache', status: 'active' },
      { slug: 'versioning', label: 'API Versioning', status: 'inactive' },
    ],
  },
  {
    category: 'Security',
    components: [
      { slug: 'auth', label: 'Authentication', status: 'active' },
      { slug: 'validation', label: 'Validation', status: 'active' },
      { slug: 'rate-limiter', label: 'Rate Limiter', status: 'monitoring' },
    ],
  },
  {
    category: 'Communication',
    components: [
      { slug: 'events', label: 'Event Bus', status: 'active' },
      { slug: 'notifications', label: 'Notifications', status: 'monitoring' },
    ],
  },
  {
    category: 'Monitoring',
    components: [
      { slug: 'telemetry', label: 'Telemetry', status: 'active' },
      { slug: 'audit-trail', label: 'Audit Trail', status: 'active' },
    ],
  },
];
