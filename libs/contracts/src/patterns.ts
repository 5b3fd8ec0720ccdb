/** The six enterprise pattern demonstrations (client-side simulations at /patterns/<slug>). */
export const PATTERN_DEMOS = [
  { slug: 'cqrs', title: 'CQRS', summary: 'Command Query Responsibility Segregation: separate write and read models.' },
  { slug: 'event-sourcing', title: 'Event Sourcing', summary: 'State rebuilt from an append-only stream of events.' },
  { slug: 'microservices', title: 'Microservices', summary: 'Independently deployable services that call each other.' },
  { slug: 'saga', title: 'Saga', summary: 'Long-running transactions with compensating actions.' },
  { slug: 'domain-driven-design', title: 'Domain-Driven Design', summary: 'Bounded contexts, models and a ubiquitous language.' },
  { slug: 'hexagonal-architecture', title: 'Hexagonal Architecture', summary: 'Ports and adapters around the domain core.' },
] as const;
