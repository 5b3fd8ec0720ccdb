import type { ReactNode } from 'react';
import { CardGrid, StatCard } from '@cbh/ui';
import { Tabs, type TabItem } from '@cbh/ui/overlays';
import { PatternIntro } from './PatternIntro';

/**
 * Every pattern page's frame: the title and when to use the pattern, then its sections as tabs, the first of them an
 * Overview of the simulation's figures (label to value) with anything the page adds under them.
 */
export function PatternPage({
  title,
  intro,
  sectionsLabel,
  figures,
  overview,
  sections,
}: {
  title: string;
  intro: ReactNode;
  /** The tab list's accessible name. */
  sectionsLabel: string;
  figures: Record<string, ReactNode>;
  overview?: ReactNode;
  /** The tabs after Overview. */
  sections: TabItem[];
}) {
  const overviewTab: TabItem = {
    value: 'overview',
    label: 'Overview',
    content: (
      <>
        <CardGrid>
          {Object.entries(figures).map(([label, value]) => (
            <StatCard key={label} label={label} value={value} />
          ))}
        </CardGrid>
        {overview}
      </>
    ),
  };
  return (
    <>
      <PatternIntro title={title}>{intro}</PatternIntro>
      <Tabs label={sectionsLabel} tabs={[overviewTab, ...sections]} />
    </>
  );
}
