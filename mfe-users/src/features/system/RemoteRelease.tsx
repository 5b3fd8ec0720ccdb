import { useId, useState } from 'react';
import styled from 'styled-components';
import { useAbortCanaryMutation, usePinReleaseMutation } from '@cbh/api-client';
import { ROUTES, sloPath, type ReleaseView } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { Button, DataTable, Muted, NARROW_SCREEN, SpreadRow, theme, toast, VisuallyHidden, When } from '@cbh/ui';
import { RowAction } from '../users/RowAction';
import { CanaryDialog } from './CanaryDialog';
import { CANARY_SLO_RULE } from './canary-slos';
import { PromoteDialog, RollbackDialog } from './ReleaseConfirmations';
import { ReleaseVersionRow } from './ReleaseVersionRow';
import { firstPageOf, refusalText, versionText } from './release-text';
import type { Previews } from './use-previews';

const COLUMNS = ['Version', 'Git commit', 'Uploaded by', 'Uploaded', 'Size', 'Loads', 'Actions'];

const Section = styled.section`
  display: grid;
  gap: 12px;
  padding-top: 16px;
  border-top: 1px solid ${theme.colors.border};
`;

const Header = styled(SpreadRow).attrs({ $gap: 8 })`
  h3 {
    font-size: 16px;
  }
`;

const Status = styled.dl`
  display: grid;
  grid-template-columns: max-content minmax(0, 1fr);
  align-items: baseline;
  gap: 6px 16px;
  margin: 0;
  font-size: 14px;
  dt {
    font-weight: 600;
    color: ${theme.colors.muted};
  }
  dd {
    margin: 0;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 6px 12px;
  }
`;

const Rule = styled.span`
  font-size: 13px;
  color: ${theme.colors.muted};
`;

const Buttons = styled.span`
  display: inline-flex;
  flex-wrap: wrap;
  gap: 6px;
`;

/* on a phone each version is a card, a labelled line per column, its buttons within the screen */
const Versions = styled.div`
  ${NARROW_SCREEN} {
    table {
      min-width: 0;
    }
    thead {
      display: none;
    }
    table,
    tbody,
    tr {
      display: block;
    }
    tr {
      padding: 10px 12px;
      margin-bottom: 10px;
      border: 1px solid ${theme.colors.border};
      border-radius: ${theme.radius};
    }
    td {
      display: grid;
      grid-template-columns: minmax(90px, 35%) minmax(0, 1fr);
      gap: 8px;
      align-items: start;
      padding: 4px 0;
      border: 0;
      white-space: normal;
      overflow-wrap: anywhere;
    }
    td::before {
      content: attr(data-label);
      font-weight: 600;
      color: ${theme.colors.muted};
    }
  }
`;

type Acting = { kind: 'promote' | 'canary'; versionId: number } | { kind: 'rollback' } | null;

/** Where a pin shows: at once on a reload, or when the remote's screens are entered from another remote's. */
function whereToSee(remote: string): string {
  const page = firstPageOf(remote);
  return remote === ROUTES.users.remote || !page ? 'Reload the page to see it.' : `Reload the page, or open ${page}, to see it.`;
}

/**
 * One remote's release: what is live, what Rollback goes back to, the canary if one runs and this browser's preview,
 * over its versions, newest first.
 */
export function RemoteRelease({
  release,
  preview,
  onPinned,
}: {
  release: ReleaseView;
  preview: Previews[string] | undefined;
  onPinned: (remote: string, versionId: number | null) => void;
}) {
  const headingId = useId();
  const { remote, canary } = release;
  const [acting, setActing] = useState<Acting>(null);
  const [abort, aborting] = useAbortCanaryMutation();
  const [pin, pinning] = usePinReleaseMutation();
  const close = () => setActing(null);
  const which = <VisuallyHidden>{` of ${remote}`}</VisuallyHidden>;

  const abortCanary = async () => {
    try {
      const after = await abort(remote).unwrap();
      toast({
        title: 'Canary Aborted',
        description: `Everyone gets ${versionText(after.liveVersionId)} of ${remote} again at their next navigation to its screens.`,
      });
    } catch (error) {
      toast({ title: 'Error', description: refusalText(`The canary of ${remote} was not aborted`, error), variant: 'destructive' });
    }
  };

  const togglePreview = async (versionId: number) => {
    const next = preview?.versionId === versionId ? null : versionId;
    try {
      await pin({ remote, versionId: next }).unwrap();
      onPinned(remote, next);
      toast(
        next === null
          ? { title: 'Preview Ended', description: `This browser gets what everyone gets of ${remote} again. ${whereToSee(remote)}` }
          : {
              title: 'Preview On',
              description: `This browser alone gets version ${next} of ${remote}, for a day or until you stop the preview. ${whereToSee(remote)}`,
            },
      );
    } catch (error) {
      const what = next === null ? `The preview of ${remote} did not end` : `Version ${next} of ${remote} is not previewed`;
      toast({ title: 'Error', description: refusalText(what, error), variant: 'destructive' });
    }
  };

  const previewListed = preview !== undefined && release.versions.some((version) => version.id === preview.versionId);
  return (
    <Section aria-labelledby={headingId} data-testid={`release-${remote}`}>
      <Header>
        <h3 id={headingId}>{remote}</h3>
        <RowAction
          reason={release.liveVersionId === null ? 'Nothing to roll back: the deployed folder is live' : null}
          variant="outline"
          onClick={() => setActing({ kind: 'rollback' })}
        >
          Rollback<VisuallyHidden>{` ${remote}`}</VisuallyHidden>
        </RowAction>
      </Header>
      <Status>
        <dt>Live</dt>
        <dd>{versionText(release.liveVersionId)}</dd>
        {release.liveVersionId !== null ? (
          <>
            <dt>Rollback to</dt>
            <dd>{versionText(release.previousVersionId)}</dd>
          </>
        ) : null}
        {canary ? (
          <>
            <dt>Canary</dt>
            <dd>
              <span>
                version {canary.versionId} to {canary.percent} % of visitors since <When at={canary.startedAt} />
              </span>
              <Buttons>
                <Button $variant="outline" onClick={() => setActing({ kind: 'promote', versionId: canary.versionId })}>
                  Promote canary{which}
                </Button>
                <Button $variant="ghost" disabled={aborting.isLoading} onClick={() => void abortCanary()}>
                  {aborting.isLoading ? 'Aborting...' : 'Abort canary'}
                  {which}
                </Button>
              </Buttons>
            </dd>
            {canary.slos.length > 0 ? (
              <>
                <dt>Judged by</dt>
                <dd>
                  <span>
                    {canary.slos.map((slo, index) => (
                      <span key={slo.id}>
                        {index > 0 ? ', ' : null}
                        <Link to={sloPath(slo.id)}>{slo.name}</Link>
                      </span>
                    ))}
                  </span>
                  <Rule>{CANARY_SLO_RULE}</Rule>
                </dd>
              </>
            ) : null}
          </>
        ) : null}
        {preview ? (
          <>
            <dt>Preview</dt>
            <dd>
              <span>
                version {preview.versionId} in this browser until <When at={preview.until} />
              </span>
              {/* a version pushed out of the newest listed has no row left to stop its preview from */}
              {previewListed ? null : (
                <Button $variant="ghost" disabled={pinning.isLoading} onClick={() => void togglePreview(preview.versionId)}>
                  Stop preview{which}
                </Button>
              )}
            </dd>
          </>
        ) : null}
      </Status>
      {release.versions.length === 0 ? (
        <Muted>
          No version uploaded yet: <code>npx cbh release push {remote}</code> uploads its build.
        </Muted>
      ) : (
        <Versions>
          <DataTable label={`Versions of ${remote}`} minWidth={1040} columns={COLUMNS}>
            {release.versions.map((version) => (
              <ReleaseVersionRow
                key={version.id}
                release={release}
                version={version}
                previewing={preview?.versionId === version.id}
                busy={pinning.isLoading}
                actions={{
                  onPromote: () => setActing({ kind: 'promote', versionId: version.id }),
                  onCanary: () => setActing({ kind: 'canary', versionId: version.id }),
                  onPreview: () => void togglePreview(version.id),
                }}
              />
            ))}
          </DataTable>
        </Versions>
      )}
      {acting?.kind === 'promote' ? <PromoteDialog release={release} versionId={acting.versionId} onClose={close} /> : null}
      {acting?.kind === 'canary' ? <CanaryDialog release={release} versionId={acting.versionId} onClose={close} /> : null}
      {acting?.kind === 'rollback' ? <RollbackDialog release={release} onClose={close} /> : null}
    </Section>
  );
}
