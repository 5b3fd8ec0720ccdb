// No schema library here: the screens' forms judge URLs as people type with this, and a module with schemas would
// bring one into their bundles.

/**
 * Whether `text` is an absolute http(s) URL with a host: the shape every address the hub calls must have (notification
 * channels, scrape targets, contact methods). Whether http and which hosts are allowed the server judges apart.
 */
export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
