import { YAML_MEDIA_TYPES } from '@cbh/contracts';

/** The media type of a Content-Type or Accept part, without parameters, in lower case. */
const mediaTypeOf = (value: string | undefined) =>
  String(value ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** A YAML media type: the configuration document's import reads YAML, every other route JSON only. */
export const isYaml = (contentType: string | undefined) => (YAML_MEDIA_TYPES as readonly string[]).includes(mediaTypeOf(contentType));
