import type React from 'react';
import styled from 'styled-components';
import { NARROW_SCREEN, theme } from './theme';

export const Card = styled.section`
  background: ${theme.colors.surface};
  border: 1px solid ${theme.colors.border};
  border-radius: ${theme.radius};
  padding: 20px;
`;

export const PageTitle = styled.h1`
  margin: 0;
  font-size: 28px;
`;

export const Muted = styled.p`
  margin: 0;
  color: ${theme.colors.muted};
`;

const Header = styled.header`
  display: flex;
  align-items: flex-start;
  justify-content: space-between;
  gap: 8px 24px;
  margin-bottom: 24px;
  ${NARROW_SCREEN} {
    flex-direction: column;
  }
`;

const Heading = styled.div`
  display: grid;
  gap: 8px;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 8px;
  flex-shrink: 0;
`;

/**
 * The one page-header pattern: the title and its description at the start, the page's actions (children) on the
 * right; on a phone, the actions under the description.
 */
export function PageHeader({ title, description, children }: { title: string; description?: string; children?: React.ReactNode }) {
  return (
    <Header>
      <Heading>
        <PageTitle>{title}</PageTitle>
        {description ? <Muted>{description}</Muted> : null}
      </Heading>
      {children ? <Actions>{children}</Actions> : null}
    </Header>
  );
}
