import { apiErrorMessage } from '@cbh/api-client';
import { isHttpUrl, NOTIFICATION_LIMITS } from '@cbh/contracts';

/*
 * What the screens' forms share when they judge a draft as people type: the shape of the problems, the URL check
 * every address the hub calls gets (notification channels and scrape targets are judged by one schema,
 * channelUrlSchema), and where the server's refusal goes. The API judges again and has the last word.
 */

/** Each field's first problem, in the schema's words ("must be an https URL"); shown as "URL: must be an https URL". */
export type Problems<Field extends string> = Partial<Record<Field, string>>;

export const hasProblems = (problems: Problems<string>) => Object.keys(problems).length > 0;

/** The fields that have a problem, and only those. */
export function compact<Field extends string>(problems: Record<Field, string | undefined>): Problems<Field> {
  return Object.fromEntries(Object.entries(problems).filter(([, problem]) => problem !== undefined)) as Problems<Field>;
}

/** An http(s) URL the hub will call, judged as channelUrlSchema judges it. */
export function urlProblem(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length > NOTIFICATION_LIMITS.urlLength) return `must be at most ${NOTIFICATION_LIMITS.urlLength} characters`;
  // http passes here as it does in the schema: whether it is allowed the server decides (ALLOW_PRIVATE_TARGETS)
  if (isHttpUrl(trimmed)) return undefined;
  return 'must be an https URL';
}

/**
 * A refusal placed where it belongs: the API names each bad field ('url: must be an https URL; recipients.1: must
 * be an e-mail address'), and each goes under its field; anything else (a field the form does not show, a refusal
 * naming none) is the form's.
 */
export function serverProblems<Field extends string>(error: unknown, fields: readonly Field[], fallback: string): Problems<Field | 'form'> {
  const message = apiErrorMessage(error);
  if (!message) return { form: fallback } as Problems<Field | 'form'>;
  const problems: Problems<Field | 'form'> = {};
  for (const part of message.split('; ')) {
    const named = /^([A-Za-z]+)(?:\.\d+)?: (.+)$/.exec(part);
    const field = named && fields.includes(named[1] as Field) ? (named[1] as Field) : 'form';
    const text = field === 'form' ? part : named![2]!;
    problems[field] = problems[field] ? `${problems[field]}; ${text}` : text;
  }
  return problems;
}
