import type { ReactNode } from 'react';
import styled from 'styled-components';
import { PageHeader, theme } from '@cbh/ui';

const Intro = styled.p`
  margin: 0 0 20px;
  max-width: 820px;
  line-height: 1.55;
  color: ${theme.colors.text};
`;

/** The page title, then when to use the pattern and what it costs, in two or three sentences. */
export function PatternIntro({ title, children }: { title: string; children: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <Intro>{children}</Intro>
    </>
  );
}
