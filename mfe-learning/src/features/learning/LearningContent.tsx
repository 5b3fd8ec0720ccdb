import { useState, type ReactNode } from 'react';
import { METRICS_REFRESH_MS, useGetBreakersQuery, useGetLatestMetricsQuery, useGetServicesQuery } from '@cbh/api-client';
import { hasPermission, ROUTES, type AuthUser, type BreakerConfigView } from '@cbh/contracts';
import { useNavigate } from '@cbh/router';
import { Card, Muted } from '@cbh/ui';
import { ConfigurationPanel } from './ConfigurationPanel';
import { GuidedDrillSection } from './GuidedDrillSection';
import { HeroStatus } from './HeroStatus';
import { MicroserviceOverview } from './MicroserviceOverview';
import { MonitoringPanel } from './MonitoringPanel';
import { PatternTypeCards } from './PatternTypeCards';
import { RealWorldApplications } from './RealWorldApplications';
import { Section, SignInPrompt } from './Section';
import { ServiceTesting } from './ServiceTesting';
import { StatesLesson } from './StatesLesson';

export interface LearningContentProps {
  /** The signed-in account, or null for a visitor: sections that need an account then say so. */
  user: AuthUser | null;
  title: string;
  description: string;
  /** Shown right under the hero (the landing page's calls to action). */
  heroActions?: ReactNode;
}

const scrollTo = (id: string) => document.getElementById(id)?.scrollIntoView({ behavior: 'smooth', block: 'start' });

/** The pattern-learning page: the sections shared by the landing page and the home screen. */
export function LearningContent({ user, title, description, heroActions }: LearningContentProps) {
  const navigate = useNavigate();
  const canView = hasPermission(user, 'circuit_breaker_view');
  const canOperate = hasPermission(user, 'circuit_breaker_operate');
  const canAdminister = hasPermission(user, 'circuit_breaker_admin');
  const { data: breakers } = useGetBreakersQuery(undefined, { skip: !canView });
  const { data: metrics } = useGetLatestMetricsQuery(undefined, { skip: !canView, pollingInterval: METRICS_REFRESH_MS });
  const { data: services } = useGetServicesQuery(undefined, { skip: !canView });
  const [selectedId, setSelectedId] = useState<number>();
  const selected = breakers?.find((breaker) => breaker.id === selectedId) ?? breakers?.[0];

  const configure = (breaker: BreakerConfigView | null) => {
    if (canView && !breaker) return navigate(ROUTES.createBreaker.path);
    if (breaker) setSelectedId(breaker.id);
    scrollTo('configure');
  };

  const needsAccount = (what: string, id: string, title: string) => (
    <Section id={id} title={title}>
      {user ? (
        <Card>
          <Muted>This needs the circuit_breaker_view permission.</Muted>
        </Card>
      ) : (
        <SignInPrompt what={what} />
      )}
    </Section>
  );

  return (
    <>
      <HeroStatus title={title} description={description} stats={metrics?.stats} live={canView} />
      {heroActions}
      <PatternTypeCards breakers={canView ? breakers : undefined} onConfigure={configure} />
      <MonitoringPanel live={canView} latest={metrics?.stats} />
      {canView ? (
        <ConfigurationPanel breaker={selected} canAdminister={canAdminister} canOperate={canOperate} />
      ) : (
        needsAccount('configure breakers and run load tests', 'configure', 'Configuration & Testing')
      )}
      <StatesLesson />
      <GuidedDrillSection user={user} />
      {canView ? (
        <MicroserviceOverview services={services} breakers={breakers} stats={metrics?.stats} />
      ) : (
        needsAccount('see the status of your services', 'microservices', 'Microservice Status')
      )}
      {canView ? (
        <ServiceTesting canOperate={canOperate} />
      ) : (
        needsAccount('test services through their breakers', 'service-testing', 'Interactive Circuit Breaker Testing')
      )}
      <RealWorldApplications />
    </>
  );
}
