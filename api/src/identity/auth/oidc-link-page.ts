import { authPage, escapeHtml } from './login-page';

const TITLE = 'Link your organization account';

/**
 * The page where a signed-in person links an organization account to their account. Its one action is a plain link
 * to the provider (no form: the site's pages may post forms only to the site itself); an account that may not link
 * one gets no such link, and `error` says why.
 */
export function linkPage({
  email,
  providerUrl,
  linked,
  error,
  done,
}: {
  email: string;
  /** null: this account may not link an organization account. */
  providerUrl: string | null;
  /** The issuers of the organization accounts already linked, with when. */
  linked: { issuer: string; createdAt: Date }[];
  error?: string;
  done: boolean;
}): string {
  const since = (date: Date) => date.toISOString().slice(0, 10);
  return authPage(
    TITLE,
    `<main>
  <h1>${TITLE}</h1>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  ${done ? '<p class="done" role="status">Your organization account is linked: you can now sign in with it.</p>' : ''}
  <p>You are signed in as <strong>${escapeHtml(email)}</strong>.${
    providerUrl
      ? ` Continue to your organization’s sign-in and sign in there with the account whose confirmed e-mail address is
    ${escapeHtml(email)}. From then on, that account signs you in here.`
      : ''
  }</p>
  ${
    linked.length
      ? `<p>Linked already:</p><ul>${linked.map((identity) => `<li>${escapeHtml(identity.issuer)}, since ${since(identity.createdAt)}</li>`).join('')}</ul>`
      : ''
  }
  ${providerUrl ? `<a class="action" href="${escapeHtml(providerUrl)}">Continue to your organization’s sign-in</a>` : ''}
  <a href="/">Back to Circuit Breaker Hub</a>
</main>`,
  );
}
