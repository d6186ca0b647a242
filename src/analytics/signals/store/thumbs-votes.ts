/** feedback rows whose `helpful` is a thumbs vote (an agent's or a code snippet's is not) */
export const VOTES = `"source" IN ('contextual', 'thumbs_only')`;
