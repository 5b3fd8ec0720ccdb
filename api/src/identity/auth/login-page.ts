export const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The forms the API serves as pages: their fields and their button. */
const FORMS = {
  login: {
    inputs: `<label>E-mail <input name="email" type="email" autocomplete="username" required autofocus></label>
         <label>Password <input name="password" type="password" autocomplete="current-password" required></label>`,
    submit: 'Sign in',
  },
  'set-password': {
    inputs: `<label>First name <input name="firstName" autocomplete="given-name"></label>
         <label>Last name <input name="lastName" autocomplete="family-name"></label>
         <label>Password (12 characters or more) <input name="password" type="password" minlength="12" autocomplete="new-password" required autofocus></label>`,
    submit: 'Set password',
  },
  // a sign-out link followed from another site asks first: another site must not end a person's session
  'sign-out': { inputs: '<p>Do you want to sign out of Circuit Breaker Hub?</p>', submit: 'Sign out' },
} as const;

/** A plain HTML page with one form; it works without JavaScript and posts to POST /api/login (or `action`). */
export function loginPage({
  error,
  action = '/api/login',
  title = 'Sign in',
  fields = 'login',
  oidc = false,
}: {
  error?: string;
  action?: string;
  title?: string;
  fields?: keyof typeof FORMS;
  oidc?: boolean;
}): string {
  const { inputs, submit } = FORMS[fields];
  return authPage(
    title,
    `<form method="post" action="${escapeHtml(action)}">
  <h1>${escapeHtml(title)}</h1>
  ${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
  ${inputs}
  <button type="submit">${submit}</button>
  ${oidc ? '<a href="/api/login">Sign in with your organization’s account instead</a>' : ''}
  <a href="/">Back to Circuit Breaker Hub</a>
</form>`,
  );
}

/** A page of the sign-in pages' look: one card (a form, or a `main` for a page without one), no script. */
export function authPage(title: string, card: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Circuit Breaker Hub</title><link rel="icon" href="data:,">
<style>
  body { font-family: system-ui, sans-serif; background: #f8fafc; color: #0f172a; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form, main { box-sizing: border-box; background: #fff; border: 1px solid #e2e8f0; border-radius: 8px; padding: 28px; width: min(418px, calc(100vw - 32px)); display: grid; gap: 14px; }
  h1 { margin: 0; font-size: 22px; } label { display: grid; gap: 6px; font-size: 14px; } main p, main ul { margin: 0; font-size: 14px; }
  input { font: inherit; padding: 8px 10px; border: 1px solid #cbd5e1; border-radius: 6px; }
  button, a.action { font: inherit; padding: 9px; border: 0; border-radius: 6px; background: #2563eb; color: #fff; font-weight: 600; cursor: pointer; text-align: center; text-decoration: none; }
  .error { color: #b91c1c; margin: 0; font-size: 14px; } .done { color: #15803d; } a { font-size: 14px; color: #475569; }
</style></head>
<body>${card}</body></html>`;
}
