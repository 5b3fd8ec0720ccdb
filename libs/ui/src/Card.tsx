import type React from 'react';
import styled from 'styled-components';
import { theme } from './theme';

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
  flex-direction: column;
  align-items: flex-start;
  gap: 8px;
  margin-bottom: 24px;
`;

export function PageHeader({ title, description, children }: { title: string; description?: string; children?: React.ReactNode }) {
  return (
    <Header>
      <PageTitle>{title}</PageTitle>
      {children}
      {description ? <Muted>{description}</Muted> : null}
    </Header>
  );
}
