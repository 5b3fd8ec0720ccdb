import { PageHeader } from '@cbh/ui';

export function PatternDemoPage({ title, summary }: { title: string; summary: string }) {
  return <PageHeader title={title} description={summary} />;
}
