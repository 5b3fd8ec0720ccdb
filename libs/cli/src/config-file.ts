import { readFileSync } from 'node:fs';
import path from 'node:path';
import { channelVariableStems, ENV_REFERENCE, IMPORT_KINDS, scrapeTokenVariable, SECRET_VARIABLE_PREFIXES } from '@cbh/contracts';

/** The variables the hub's exports name for secrets (channels' URLs and secrets, scrape targets' tokens); cbh fills in no other. */
const NAMED = SECRET_VARIABLE_PREFIXES.map((prefix) => `${prefix}…`).join(' or ');
/**
 * Where the hub's exports put those references, and the one variable each place may name, bound to its item's name as
 * the export wrote it: a channel's url and secret only its own CBH_CHANNEL_<NAME>_URL and _SECRET (the stems of the
 * document's channels, reckoned as the export reckons them, so names sharing a stem keep their _2, _3…), a scrape
 * target's bearer token only its own CBH_SCRAPE_<NAME>_TOKEN. A document from someone else (a pull request) so cannot
 * have one item's secret filled into another item, which would send it to the URL beside it.
 */
const SECRET_PLACES: {
  list: string;
  fields: string[];
  /** How a refusal names the variable the place takes (`expected`, when the item has a name). */
  own: (field: string, expected: string | undefined) => string;
  /** The variable `field` of an item named `name` takes; `stems` are the document's channels' (channelVariableStems). */
  variable: (name: string, field: string, stems: ReadonlyMap<string, string>) => string | undefined;
}[] = [
  {
    list: 'channels',
    fields: ['url', 'secret'],
    own: (field, expected) => `the channel's own ${expected ?? `CBH_CHANNEL_<NAME>_${field.toUpperCase()}`}`,
    variable: (name, field, stems) => {
      const stem = stems.get(name);
      return stem === undefined ? undefined : `${stem}_${field.toUpperCase()}`;
    },
  },
  {
    list: 'scrapeTargets',
    fields: ['bearerToken'],
    own: () => "the target's own CBH_SCRAPE_<NAME>_TOKEN",
    variable: (name) => scrapeTokenVariable(name),
  },
];
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { CliError } from './cli-error';

/** The media type POST /api/import reads a file as, by the file's extension. */
const MEDIA_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** A reference `${env:NAME}` of the file that the environment does not fill in: the hub decides (see referencesFilled). */
export interface UnfilledReference {
  /** Where it is: `hub.yaml:12:10`. */
  at: string;
  /** Its place in the document: `channels[0].url`. */
  place: string;
  variable: string;
}

/**
 * A configuration document read from a file, sent to the hub as it is (but for the references the environment fills
 * in) and read here only to point into it.
 */
export class ConfigFile {
  private readonly lines = new LineCounter();
  private readonly document: Document;

  private constructor(
    readonly name: string,
    readonly text: string,
    readonly contentType: string,
  ) {
    // JSON is YAML too: one parser locates a place in either kind of file
    this.document = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: false });
  }

  /** The file, refused before anything is sent when it cannot be read or is not even well-formed YAML or JSON. */
  static read(name: string): ConfigFile {
    const contentType = MEDIA_TYPES[path.extname(name).toLowerCase()];
    if (!contentType) throw new CliError(`${name}: name the file .yaml, .yml or .json, so that cbh knows how to send it`);
    let text: string;
    try {
      text = readFileSync(name, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(`Cannot read ${name}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
    }
    const file = new ConfigFile(name, text, contentType);
    const [syntax] = file.document.errors;
    if (syntax) throw new CliError(`${file.at(syntax.pos[0])}: ${syntax.message.split('\n')[0]}; nothing was sent to the hub`);
    return file;
  }

  /** How many items the document lists, for the progress line. */
  get items(): number {
    const contents = this.document.contents;
    if (!isMap(contents)) return 0;
    return IMPORT_KINDS.reduce((sum, kind) => {
      const list = contents.get(`${kind}s`, true);
      return sum + (isSeq(list) ? list.items.length : 0);
    }, 0);
  }

  /**
   * The text to send: the file with each channel's `url` and `secret`, and each scrape target's `bearerToken`, given as a reference `${env:NAME}` replaced by
   * NAME's value in `env`, written as a JSON string (which YAML reads as well), the rest byte for byte. A reference
   * whose variable is unset or empty is sent as it is: the hub then keeps the URL or secret it has for the channel,
   * and refuses a new channel. The hub itself never fills a reference in (it would let a document send the
   * hub's own environment away); the file is not changed, and problems are still placed in it as it is.
   */
  referencesFilled(env: NodeJS.ProcessEnv): { text: string; filled: number; unfilled: UnfilledReference[] } {
    const replacements: { from: number; to: number; text: string }[] = [];
    const unfilled: UnfilledReference[] = [];
    const contents = this.document.contents;
    const channels = isMap(contents) ? contents.get('channels', true) : undefined;
    const channelNames = isSeq(channels)
      ? channels.items.flatMap((item) => (isMap(item) && typeof item.get('name') === 'string' ? [item.get('name') as string] : []))
      : [];
    const stems = channelVariableStems(channelNames);
    for (const { list, fields, own, variable: ownVariable } of SECRET_PLACES) {
      const items = isMap(contents) ? contents.get(list, true) : undefined;
      if (!isSeq(items)) continue;
      items.items.forEach((item, index) => {
        if (!isMap(item)) return;
        for (const field of fields) {
          const node = item.get(field, true);
          if (!isScalar(node) || typeof node.value !== 'string' || !node.range) continue;
          const variable = ENV_REFERENCE.exec(node.value)?.[1];
          if (variable === undefined) continue;
          const place = `${list}[${index}].${field}`;
          // Only the hub's own names, in place: a document from someone else (a pull request) must not be able to
          // have another variable of the CI job filled in, nor copy a filled value by an anchor into a field that
          // `cbh diff` prints (a name, say).
          if (!SECRET_VARIABLE_PREFIXES.some((prefix) => variable.startsWith(prefix))) {
            throw new CliError(
              `${this.at(node.range[0])}: ${place}: cbh fills in only variables named ${NAMED}, not ${variable}; nothing was sent to the hub`,
            );
          }
          const name = item.get('name');
          const expected = typeof name === 'string' ? ownVariable(name, field, stems) : undefined;
          if (variable !== expected) {
            throw new CliError(
              `${this.at(node.range[0])}: ${place}: cbh fills in here only ${own(field, expected)}, not ${variable}; nothing was sent to the hub`,
            );
          }
          if (node.anchor) {
            throw new CliError(
              `${this.at(node.range[0])}: ${place}: a reference may not carry an anchor (&${node.anchor}); nothing was sent to the hub`,
            );
          }
          const value = env[variable];
          if (value) replacements.push({ from: node.range[0], to: node.range[1], text: JSON.stringify(value) });
          else unfilled.push({ at: this.at(node.range[0]), place, variable });
        }
      });
    }
    let text = this.text;
    // from the end, so that each replacement leaves the offsets of those before it as they were
    for (const { from, to, text: value } of replacements.sort((a, b) => b.from - a.from)) {
      text = `${text.slice(0, from)}${value}${text.slice(to)}`;
    }
    return { text, filled: replacements.length, unfilled };
  }

  /**
   * The hub's message for a refused document, each problem on its own line and led by where it is in the file
   * ("hub.yaml:14:24: breakers[2].failureThreshold: must be at most 20"), as editors and CI annotations read them.
   */
  explain(hubMessage: string): string {
    return hubMessage
      .split('; ')
      .map((problem) => {
        const place = /^((?:[A-Za-z_]\w*)(?:\[\d+\]|\.[A-Za-z_]\w*)*): /.exec(problem)?.[1];
        return place ? `${this.at(this.offsetOf(place))}: ${problem}` : `${this.name}: ${problem}`;
      })
      .join('\n');
  }

  /** The document as plain values, for what cbh checks itself before sending (a drill's body). */
  value(): unknown {
    return this.document.toJS();
  }

  /** Where a place of the document is in the file (`drill.yaml:7:17` for `steps[0].fault.rate`). */
  locate(place: string): string {
    return this.at(this.offsetOf(place));
  }

  /** The offset of the deepest node on the path that the document has (a missing key points at its item). */
  private offsetOf(place: string): number | undefined {
    const keys = place.split(/\.|(?=\[)/).map((key) => (key.startsWith('[') ? Number(key.slice(1, -1)) : key));
    for (let depth = keys.length; depth > 0; depth--) {
      const node = this.document.getIn(keys.slice(0, depth), true) as { range?: [number, number, number] } | undefined;
      if (node?.range) return node.range[0];
    }
    return undefined;
  }

  private at(offset: number | undefined): string {
    if (offset === undefined) return this.name;
    const { line, col } = this.lines.linePos(offset);
    return `${this.name}:${line}:${col}`;
  }
}
