import { ApiInstances1763800000000 } from './1763800000000-ApiInstances';
import { Identity1763900000000 } from './1763900000000-Identity';
import { Elevation1764000000000 } from './1764000000000-Elevation';
import { Breakers1764100000000 } from './1764100000000-Breakers';
import { Services1764200000000 } from './1764200000000-Services';
import { TestSessions1764300000000 } from './1764300000000-TestSessions';
import { MetricBuckets1764400000000 } from './1764400000000-MetricBuckets';
import { Domains1764500000000 } from './1764500000000-Domains';
import { DomainShownDigest1764600000000 } from './1764600000000-DomainShownDigest';
import { BreakerOverride1764700000000 } from './1764700000000-BreakerOverride';
import { SignInAttempts1764800000000 } from './1764800000000-SignInAttempts';
import { ApiInstanceStopped1764900000000 } from './1764900000000-ApiInstanceStopped';
import { TransitionOnce1765000000000 } from './1765000000000-TransitionOnce';
import { UserIdentities1765100000000 } from './1765100000000-UserIdentities';
import { AttemptLimits1765200000000 } from './1765200000000-AttemptLimits';
import { JournalNamesNotEmails1765300000000 } from './1765300000000-JournalNamesNotEmails';
import { ApiTokens1765400000000 } from './1765400000000-ApiTokens';
import { SessionsAndOrganizationSettings1765500000000 } from './1765500000000-SessionsAndOrganizationSettings';
import { ServiceAccounts1765600000000 } from './1765600000000-ServiceAccounts';
import { Retention1765700000000 } from './1765700000000-Retention';
import { UniqueNames1765800000000 } from './1765800000000-UniqueNames';
import { ExternalBreakers1766000000000 } from './1766000000000-ExternalBreakers';
import { RemoteReleases1766100000000 } from './1766100000000-RemoteReleases';
import { Notifications1765900000000 } from './1765900000000-Notifications';
import { ClusterSeries1766300000000 } from './1766300000000-ClusterSeries';
import { ReleaseBounds1766400000000 } from './1766400000000-ReleaseBounds';
import { BoundedAgents1766500000000 } from './1766500000000-BoundedAgents';
import { ScrapedBreakerAgeOut1766600000000 } from './1766600000000-ScrapedBreakerAgeOut';
import { AuditRetentionFloor1766700000000 } from './1766700000000-AuditRetentionFloor';
import { AgentInstanceBreakers1766800000000 } from './1766800000000-AgentInstanceBreakers';
import { LogChannelsAndSampleData1766900000000 } from './1766900000000-LogChannelsAndSampleData';
import { StatusPages1767000000000 } from './1767000000000-StatusPages';
import { OnCallSchedules1767100000000 } from './1767100000000-OnCallSchedules';
import { AlertGroups1767200000000 } from './1767200000000-AlertGroups';
import { Slos1767300000000 } from './1767300000000-Slos';
import { CanarySlos1767400000000 } from './1767400000000-CanarySlos';
import { Drills1767500000000 } from './1767500000000-Drills';
import { DrillDefinitions1767600000000 } from './1767600000000-DrillDefinitions';
import { FleetFigures1767700000000 } from './1767700000000-FleetFigures';
import { DueWakeUps1767800000000 } from './1767800000000-DueWakeUps';

/** Every schema change, oldest first; one migration per change. */
export const MIGRATIONS = [
  ApiInstances1763800000000,
  Identity1763900000000,
  Elevation1764000000000,
  Breakers1764100000000,
  Services1764200000000,
  TestSessions1764300000000,
  MetricBuckets1764400000000,
  Domains1764500000000,
  DomainShownDigest1764600000000,
  BreakerOverride1764700000000,
  SignInAttempts1764800000000,
  ApiInstanceStopped1764900000000,
  TransitionOnce1765000000000,
  UserIdentities1765100000000,
  AttemptLimits1765200000000,
  JournalNamesNotEmails1765300000000,
  ApiTokens1765400000000,
  SessionsAndOrganizationSettings1765500000000,
  ServiceAccounts1765600000000,
  Retention1765700000000,
  UniqueNames1765800000000,
  Notifications1765900000000,
  ExternalBreakers1766000000000,
  RemoteReleases1766100000000,
  ClusterSeries1766300000000,
  ReleaseBounds1766400000000,
  BoundedAgents1766500000000,
  ScrapedBreakerAgeOut1766600000000,
  AuditRetentionFloor1766700000000,
  AgentInstanceBreakers1766800000000,
  LogChannelsAndSampleData1766900000000,
  StatusPages1767000000000,
  OnCallSchedules1767100000000,
  AlertGroups1767200000000,
  Slos1767300000000,
  CanarySlos1767400000000,
  Drills1767500000000,
  DrillDefinitions1767600000000,
  FleetFigures1767700000000,
  DueWakeUps1767800000000,
];
