import type { ReactNode } from 'react';
import styled from 'styled-components';
import { ButtonLink, Card, Muted } from '@cbh/ui';

const Wrapper = styled.section`
  margin: 40px 0;
  > h2 {
    margin: 0 0 4px;
    font-size: 22px;
  }
  > p {
    margin-bottom: 16px;
  }
`;

/** One titled block of the learning page; `id` is its anchor. */
export function Section({ id, title, intro, children }: { id: string; title: string; intro?: string; children: ReactNode }) {
  return (
    <Wrapper id={id} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {intro ? <Muted>{intro}</Muted> : null}
      {children}
    </Wrapper>
  );
}

export const Grid = styled.div<{ $min?: number }>`
  display: grid;
  grid-template-columns: repeat(auto-fit, minmax(${({ $min = 260 }) => $min}px, 1fr));
  gap: 16px;
  h3 {
    margin: 0 0 6px;
    font-size: 17px;
  }
`;

/** What a signed-out visitor sees where a section needs their account. */
export function SignInPrompt({ what }: { what: string }) {
  return (
    <Card>
      <Muted style={{ marginBottom: 12 }}>Sign in to {what}.</Muted>
      <ButtonLink href="/api/login">Sign in</ButtonLink>
    </Card>
  );
}
