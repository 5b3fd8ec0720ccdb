import { readFileSync } from 'node:fs';
import path from 'node:path';
import { IMPORT_KINDS } from '@cbh/contracts';
import { isMap, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { CliError } from './cli-error';

/** The media type POST /api/import reads a file as, by the file's extension. */
const MEDIA_TYPES: Record<string, string> = {
  '.json': 'application/json',
  '.yaml': 'application/yaml',
  '.yml': 'application/yaml',
};

/** A configuration document read from a file, sent to the hub as it is and read here only to point into it. */
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
