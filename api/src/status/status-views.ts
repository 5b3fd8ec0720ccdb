import type { ComponentState, IncidentUpdateView, IncidentView, StatusComponentView, StatusPageView } from '@cbh/contracts';
import { worstState } from '@cbh/contracts';
import type { IncidentEntity, IncidentUpdateEntity } from './entities/incident.entity';
import type { StatusComponentEntity } from './entities/status-component.entity';
import type { StatusPageEntity } from './entities/status-page.entity';
import { renderMarkdown } from './markdown';

export function componentView(row: StatusComponentEntity): StatusComponentView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    group: row.group,
    breakers: row.breakerIds,
    domains: row.domainIds,
    state: row.state,
  };
}

export function pageView(page: StatusPageEntity, components: readonly StatusComponentEntity[]): StatusPageView {
  return {
    id: page.id,
    slug: page.slug,
    title: page.title,
    description: page.description,
    public: page.public,
    accentColor: page.accentColor,
    state: worstState(components.map((component) => component.state)),
    components: components.map(componentView),
    createdAt: page.createdAt.toISOString(),
    updatedAt: page.updatedAt.toISOString(),
  };
}

export function updateView(row: IncidentUpdateEntity, withAuthor: boolean): IncidentUpdateView {
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    messageHtml: renderMarkdown(row.message),
    createdAt: row.createdAt.toISOString(),
    ...(withAuthor ? { author: row.author ?? 'the hub' } : {}),
  };
}

export function incidentView(
  incident: IncidentEntity,
  updates: readonly IncidentUpdateEntity[],
  names: ReadonlyMap<number, string>,
  withAuthor = true,
): IncidentView {
  return {
    id: incident.id,
    pageId: incident.pageId,
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    components: incident.components
      .filter((entry) => names.has(entry.id))
      .map((entry) => ({ id: entry.id, name: names.get(entry.id)!, state: entry.state as ComponentState })),
    createdAt: incident.createdAt.toISOString(),
    resolvedAt: incident.resolvedAt?.toISOString() ?? null,
    updates: updates.map((update) => updateView(update, withAuthor)),
  };
}
