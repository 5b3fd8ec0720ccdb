import { useGetAuthUserQuery } from '@cbh/api-client';
import { LearningContent } from '../learning/LearningContent';
import { SiteFooter } from '../learning/SiteFooter';

/** What a signed-in user sees at /. */
export function HomePage() {
  const { data: user = null } = useGetAuthUserQuery();
  return (
    <article>
      <LearningContent
        user={user}
        title="Circuit Breaker Patterns"
        description="Explore the three breaker types, tune their settings and watch them react to load."
      />
      <SiteFooter />
    </article>
  );
}
