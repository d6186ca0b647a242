import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';

const SPEC = path.resolve(import.meta.dirname, '../../../shared/spec/mintlify/analytics.openapi.json');

/** Validators for the compatible response schemas of the hosted service's OpenAPI document. */
export function mintlifyValidators() {
  const spec = JSON.parse(fs.readFileSync(SPEC, 'utf8')) as { components: { schemas: Record<string, object> } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: 'mintlify', components: spec.components });
  const get = (name: string) => ajv.getSchema(`mintlify#/components/schemas/${name}`)!;
  return { visitors: get('VisitorsByPageResponse'), views: get('ViewsByPageResponse'), error: get('AnalyticsErrorResponse') };
}
