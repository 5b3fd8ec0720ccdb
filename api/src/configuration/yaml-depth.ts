import { CST, Lexer } from 'yaml';

/**
 * How deep a YAML document may go, counted as yamlDepthExceeds does: the hub's own export reaches about 14 (a status
 * page component's breakers, a rotation's people), so a hand-written document has room to spare.
 */
export const MAX_YAML_DEPTH = 64;

/**
 * Whether a YAML text goes deeper than `limit`, read token by token and given up on as soon as it does, before the
 * parser builds anything. The parser's cost grows with depth (a 1 MB body of "[[[[…" or "- - - …" kept a replica's
 * thread for seconds before it gave up at its own stack's limit), so the depth is bounded first, from YAML's own
 * lexer: what it reads as a bracket or an indicator is what the parser would, and a quoted "[[" is not.
 *
 * A line's depth is its indentation in columns, plus the block indicators (`- `, `? `, `: `) before its first
 * scalar, plus the flow collections (`[`, `{`) open at that point; a flow collection spanning lines keeps the depth of
 * the line it opened on.
 */
export function yamlDepthExceeds(text: string, limit = MAX_YAML_DEPTH): boolean {
  let flow = 0;
  let block = 0;
  let lineStart = true;
  for (const token of new Lexer().lex(text)) {
    switch (CST.tokenType(token)) {
      case 'doc-mode':
      case 'byte-order-mark':
        break;
      case 'newline':
        if (flow === 0) {
          block = 0;
          lineStart = true;
        }
        break;
      case 'space':
        if (lineStart && flow === 0) block += token.length;
        break;
      case 'seq-item-ind':
      case 'explicit-key-ind':
      case 'map-value-ind':
        if (flow === 0) block += 1;
        break;
      case 'flow-seq-start':
      case 'flow-map-start':
        flow += 1;
        lineStart = false;
        break;
      case 'flow-seq-end':
      case 'flow-map-end':
        flow = Math.max(0, flow - 1);
        break;
      default:
        lineStart = false;
    }
    if (block + flow > limit) return true;
  }
  return false;
}
