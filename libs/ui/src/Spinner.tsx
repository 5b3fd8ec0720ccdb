import styled, { keyframes } from 'styled-components';
import { theme } from './theme';

const spin = keyframes`to { transform: rotate(360deg); }`;

const Ring = styled.div`
  width: 40px;
  height: 40px;
  border: 4px solid ${theme.colors.border};
  border-top-color: ${theme.colors.primary};
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;
`;

const FullScreen = styled.div`
  position: fixed;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
  background: ${theme.colors.background};
`;

export function FullScreenSpinner({ label = 'Loading' }: { label?: string }) {
  return (
    <FullScreen role="status" aria-label={label}>
      <Ring />
    </FullScreen>
  );
}
