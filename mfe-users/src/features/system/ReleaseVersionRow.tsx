import styled from 'styled-components';
import type { ReleaseView, RemoteVersionView } from '@cbh/contracts';
import { Badge, BadgeList, Button, Muted, theme, VisuallyHidden, When } from '@cbh/ui';
import { RowAction } from '../users/RowAction';
import { activeText, entryText, errorsAfterRenderText, loadsText, sizeText, timingText } from './release-text';

const Stack = styled.div`
  display: grid;
  gap: 2px;
`;

const Small = styled.span`
  font-size: 12px;
  color: ${theme.colors.muted};
  white-space: nowrap;
`;

/** A share of failed loads as high as FAILING_SHARE reads in red. */
const Loads = styled.span<{ $failing: boolean }>`
  color: ${({ $failing }) => ($failing ? theme.colors.destructive : 'inherit')};
`;

/** Errors its code threw after rendering: not failed loads, but bad for its remote-loads SLOs all the same. */
const Errors = styled(Small)`
  color: ${theme.colors.destructive};
`;

const Nowrap = styled.td`
  white-space: nowrap;
`;

const Actions = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: 6px;
`;

const Mark = styled(Badge)`
  white-space: nowrap;
`;

/** A version that fails for one load in twenty is broken for someone: its share of failed loads reads in red. */
const FAILING_SHARE = 0.05;

export interface VersionActions {
  onPromote: () => void;
  onCanary: () => void;
  onPreview: () => void;
}

/** One uploaded version: where it came from, its size, how its loads went, and what can be done with it. */
export function ReleaseVersionRow({
  release,
  version,
  previewing,
  busy,
  actions,
}: {
  release: ReleaseView;
  version: RemoteVersionView;
  /** Whether this browser is pinned to this version. */
  previewing: boolean;
  /** A pin is being set for this remote: its Preview buttons wait. */
  busy: boolean;
  actions: VersionActions;
}) {
  const live = release.liveVersionId === version.id;
  const canary = release.canary?.versionId === version.id ? release.canary : null;
  const which = <VisuallyHidden>{` version ${version.id} of ${release.remote}`}</VisuallyHidden>;
  const { loads } = version;
  const failing = loads.count > 0 && loads.failed / loads.count >= FAILING_SHARE;
  return (
    <tr data-testid={`release-version-${version.id}`}>
      <td data-label="Version">
        <Stack>
          <span>{version.id}</span>
          {live || canary || previewing ? (
            <BadgeList aria-label="Status">
              {live ? (
                <li>
                  <Mark $color={theme.colors.success}>Live</Mark>
                </li>
              ) : null}
              {canary ? (
                <li>
                  <Mark $color={theme.colors.orange}>Canary {canary.percent} %</Mark>
                </li>
              ) : null}
              {previewing ? (
                <li>
                  <Mark $color={theme.colors.grey}>Preview</Mark>
                </li>
              ) : null}
            </BadgeList>
          ) : null}
        </Stack>
      </td>
      <td data-label="Git commit">
        {version.gitCommit ? <code title={version.gitCommit}>{version.gitCommit.slice(0, 7)}</code> : <Muted as="span">—</Muted>}
      </td>
      <td data-label="Uploaded by">{version.uploadedBy ?? <Muted as="span">Removed account</Muted>}</td>
      <Nowrap data-label="Uploaded">
        <When at={version.uploadedAt} />
      </Nowrap>
      <td data-label="Size">
        <Stack>
          <span>{sizeText(version.bytes)}</span>
          <Small>{entryText(version.entryGzipBytes)}</Small>
        </Stack>
      </td>
      <td data-label="Loads">
        {loads.count === 0 && loads.errorsAfterRender === 0 ? (
          <Muted as="span">None yet</Muted>
        ) : (
          <Stack>
            {loads.count > 0 ? (
              <>
                <Loads $failing={failing}>{loadsText(loads)}</Loads>
                <Small>{timingText(loads)}</Small>
                <Small>{activeText(loads)}</Small>
              </>
            ) : null}
            {loads.errorsAfterRender > 0 ? <Errors>{errorsAfterRenderText(loads)}</Errors> : null}
          </Stack>
        )}
      </td>
      <td data-label="Actions">
        <Actions>
          <RowAction
            reason={live && !release.canary ? `Version ${version.id} is live already` : null}
            variant="outline"
            onClick={actions.onPromote}
          >
            Promote{which}
          </RowAction>
          <RowAction
            reason={live ? `Version ${version.id} is live already: a canary tries a version that is not` : null}
            variant="outline"
            onClick={actions.onCanary}
          >
            Canary…{which}
          </RowAction>
          <Button $variant="ghost" disabled={busy} onClick={actions.onPreview}>
            {previewing ? 'Stop preview' : 'Preview'}
            {which}
          </Button>
        </Actions>
      </td>
    </tr>
  );
}
