/**
 * Reloads the document, so the auth user is read afresh after the e-mailed link was followed in another tab.
 * A module of its own because jsdom's location cannot be stubbed; tests mock this module instead.
 */
export function reloadPage() {
  window.location.reload();
}
