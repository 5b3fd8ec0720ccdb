import type { ReactNode } from 'react';
import styled from 'styled-components';
import { NARROW_SCREEN } from '@cbh/ui';
import { Sidebar } from './Sidebar';

const Frame = styled.div`
  display: flex;
  flex-direction: column;
  height: 100%;
`;

const Body = styled.div`
  display: flex;
  flex: 1;
  min-height: 0;
`;

const Main = styled.main`
  flex: 1;
  overflow-y: auto;
  padding: 24px 32px;
  ${NARROW_SCREEN} {
    padding: 16px;
  }
`;

/** The page around every route: the top bar, the sidebar and the main area. */
export function ShellFrame({ topBar, children }: { topBar: ReactNode; children: ReactNode }) {
  return (
    <Frame>
      {topBar}
      <Body>
        <Sidebar />
        <Main>{children}</Main>
      </Body>
    </Frame>
  );
}
