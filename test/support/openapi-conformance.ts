import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { Express } from 'express';

type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks real responses against Scribe's own OpenAPI document: the operation must exist, the status must be
 * documented for it, and a JSON body must validate against the documented schema.
 */
export function openApiConformance(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ ...document, $id: 'scribe' });
  const cache = new Map<string, ValidateFunction>();
  return {
    async check(params: {
      method: string;
      path: string;
      response: Response;
    }): Promise<{ status: number; body: unknown }> {
      const { method, path, response } = params;
      const operation = document.paths[path]?.[method.toLowerCase()];
      if (!operation) throw new Error(`${method} ${path} is not in the OpenAPI document`);
      const documented = operation.responses[String(response.status)];
      if (!documented)
        throw new Error(`${method} ${path} answered ${response.status}, which the document does not list`);
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0];
      if (contentType !== 'application/json') return { status: response.status, body: await response.text() };
      const body = (await response.json()) as unknown;
      const key = `${path} ${method} ${response.status}`;
      let validate = cache.get(key);
      if (!validate) {
        const ref = `scribe#/paths/${pointer(path)}/${method.toLowerCase()}/responses/${response.status}/content/application~1json/schema`;
        validate = ajv.getSchema(ref);
        if (!validate) throw new Error(`${method} ${path} ${response.status} has no JSON schema in the document`);
        cache.set(key, validate);
      }
      if (!validate(body))
        throw new Error(
          `${method} ${path} ${response.status} does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
        );
      return { status: response.status, body };
    },
  };
}

/** Every (method, path) the express app routes, with `:param` written as `{param}`. */
export function routedOperations(app: Express): string[] {
  const found: string[] = [];
  const walk = (stack: unknown[]) => {
    for (const layer of stack as {
      route?: { path: string; methods: Record<string, boolean> };
      handle?: { stack?: unknown[] };
    }[]) {
      if (layer.route) {
        for (const method of Object.keys(layer.route.methods))
          found.push(`${method} ${layer.route.path.replace(/[:*](\w+)/g, '{$1}')}`);
      } else if (layer.handle?.stack) {
        walk(layer.handle.stack);
      }
    }
  };
  walk((app as unknown as { router: { stack: unknown[] } }).router.stack);
  return found;
}
