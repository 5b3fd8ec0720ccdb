/** A user agent is kept and read up to this many characters: enough for any real browser's, and a bound for a made-up one. */
export const USER_AGENT_MAX_LENGTH = 512;

export interface UserAgentSummary {
  browser: string;
  os: string;
}

/** Browsers and tools, in the order they must be tried: Edge and Opera also say Chrome, Chrome also says Safari. */
const BROWSERS: [name: string, pattern: RegExp][] = [
  ['Edge', /\bEdg(?:e|A|iOS)?\/(\d+)/],
  ['Opera', /\bOPR\/(\d+)/],
  ['Samsung Internet', /\bSamsungBrowser\/(\d+)/],
  ['Firefox', /\b(?:Firefox|FxiOS)\/(\d+)/],
  ['Chromium', /\bChromium\/(\d+)/],
  ['Chrome', /\b(?:Chrome|CriOS)\/(\d+)/],
  ['Safari', /\bVersion\/(\d+)[\d.]* (?:Mobile\/\w+ )?Safari\//],
  ['curl', /^curl\/(\d+)/],
  ['Wget', /^Wget\/(\d+)/],
  ['Python', /^python-(?:requests|httpx|urllib\d?)\/(\d+)/],
  ['Postman', /^PostmanRuntime\/(\d+)/],
  ['Node.js', /^node(?:-fetch)?(?:\/(\d+))?$/],
];

const SYSTEMS: [name: string, pattern: RegExp][] = [
  ['iOS', /\b(?:iPhone|iPad|iPod)\b/],
  ['Android', /\bAndroid\b/],
  ['ChromeOS', /\bCrOS\b/],
  ['Windows', /\bWindows\b/],
  ['macOS', /\bMac OS X\b|\bMacintosh\b/],
  ['Linux', /\bLinux\b/],
];

/**
 * The browser (with its major version) and operating system a user agent names, for a list of sessions a person
 * recognises: 'Firefox 133' on 'macOS'. Deliberately small, and linear in the (bounded) input.
 */
export function describeUserAgent(userAgent: string | null | undefined): UserAgentSummary {
  const text = (userAgent ?? '').slice(0, USER_AGENT_MAX_LENGTH);
  let browser = 'Unknown browser';
  for (const [name, pattern] of BROWSERS) {
    const match = pattern.exec(text);
    if (match) {
      browser = match[1] ? `${name} ${match[1]}` : name;
      break;
    }
  }
  const os = SYSTEMS.find(([, pattern]) => pattern.test(text))?.[0] ?? 'Unknown OS';
  return { browser, os };
}
