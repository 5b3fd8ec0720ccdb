import styled from 'styled-components';
import { breakerPath, canOpen, ROUTES, type AlertGroupView, type AuthUser } from '@cbh/contracts';
import { Link } from '@cbh/router';
import { theme } from '@cbh/ui';
import { SUBJECT_WORDS } from './alert-group-text';

const Kind = styled.span`
  margin-right: 6px;
  font-size: 12px;
  color: ${theme.colors.muted};
`;

/**
 * A finger's target (WCAG 2.5.8) in a row of text: one piece that wraps inside itself only when it must, padded to
 * more than 24 px tall, the padding taken back by a margin so that its line is no taller than the others. (Made 24 px
 * tall by its height, it hung below the text's baseline and pushed the next line — the summary's next fact, the
 * timeline's next entry — away.)
 */
const SubjectLink = styled(Link)`
  display: inline-block;
  padding: 4px 0;
  margin: -4px 0;
  overflow-wrap: anywhere;
`;

/**
 * Where a subject's page is, for someone who may open it: a breaker's own page (by id: agents' breakers share names
 * across services), the domains page (domains have no page of their own), the releases for a remote. An SLO has no
 * page yet. Null: the name stays text.
 */
function subjectPath(subject: AlertGroupView['subject'], user: AuthUser | null | undefined): string | null {
  switch (subject.kind) {
    case 'breaker':
      return canOpen(user, ROUTES.breakerDetail) ? breakerPath(subject.id) : null;
    case 'domain':
      return canOpen(user, ROUTES.domains) ? ROUTES.domains.path : null;
    case 'remote':
      return canOpen(user, ROUTES.releases) ? ROUTES.releases.path : null;
    default:
      return null;
  }
}

/** "Breaker payments": its kind in small words, then its name, a link to its page where there is one to open. */
export function SubjectName({ subject, user }: { subject: AlertGroupView['subject']; user: AuthUser | null | undefined }) {
  const path = subjectPath(subject, user);
  return (
    <span>
      <Kind>{SUBJECT_WORDS[subject.kind]}</Kind>
      {path ? <SubjectLink to={path}>{subject.name}</SubjectLink> : subject.name}
    </span>
  );
}
