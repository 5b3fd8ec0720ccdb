import { PageHeader } from '@cbh/ui';

/** What a signed-in user sees at /. */
export function HomePage() {
  return (
    <PageHeader
      title="Circuit Breaker Patterns"
      description="Explore the three breaker types, tune their settings and watch them react to load."
    />
  );
}
