/**
 * The docs pages written from the code, so they cannot drift from it:
 * - docs/configuration.md from src/config.ts (every variable, its default, an example, its meaning);
 * - docs/cli.md from the CLI's own usage lines and summaries (src/cli/);
 * - docs/openapi.json, the OpenAPI document the server serves at /openapi.json, and docs/api-reference.md from it.
 *
 *   npm run docs:generate            rewrites them
 *   npx tsx scripts/docs/generate-docs.ts --check   fails when one differs from what the code gives (npm test runs it)
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { configReference } from '../../src/config.js';
import { commands } from '../../src/cli/run-cli.js';
import { apiDocument } from '../../src/http/openapi/api-operations.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GENERATED = 'This page is generated';

/**
 * Text that reads the same on GitHub and in Mintlify, whose pages are MDX: outside code spans, `{`, `}` and `<`
 * would start an expression or a tag, so they are escaped (GitHub renders the escapes as the characters).
 */
export function mdxSafe(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/[{}]/g, '\\$&').replace(/</g, '&lt;')))
    .join('');
}

/** A table cell: MDX-safe, one line, pipes escaped (GitHub reads `\|` as a pipe inside code spans too). */
const cell = (text: string) => mdxSafe(text.replace(/\s*\n\s*/g, ' ')).replace(/\|/g, '\\|');

/** An example as code, unless it is a description in plain words ("64 hex characters"). */
const code = (text: string) => (/^[A-Za-z0-9 ]+ [A-Za-z ]+$/.test(text) ? text : `\`${text}\``);

/** Frontmatter with the notice as a YAML comment: hidden on GitHub and in Mintlify alike. */
function frontmatter(params: { title: string; description: string; source: string }): string {
  const { title, description, source } = params;
  return [
    '---',
    `# ${GENERATED} from ${source} by \`npm run docs:generate\`: edit the source, not this file.`,
    `title: ${JSON.stringify(title)}`,
    `description: ${JSON.stringify(description)}`,
    '---',
    '',
    '',
  ].join('\n');
}

export function configurationPage(): string {
  const rows = configReference().map(
    (v) => `| \`${v.name}\` | ${cell(v.default)} | ${cell(code(v.example))} | ${cell(v.meaning)} |`,
  );
  return [
    frontmatter({
      title: 'Configuration',
      description: 'Every environment variable Scribe reads, its default and what it does.',
      source: 'src/config.ts',
    }),
    'Scribe reads its configuration from environment variables, each parsed once in `src/config.ts`. A bad value stops ',
    'the process with one line naming it (`scribe: invalid configuration: PORT: must be a port number 0..65535 (got "abc")`). ',
    'Nothing is required to start: without the GitHub App and model variables the service runs analytics and logs ',
    'what agent jobs still need.\n\n',
    '| Variable | Default | Example | Meaning |\n| --- | --- | --- | --- |\n',
    rows.join('\n'),
    '\n',
  ].join('');
}

export function cliPage(): string {
  const sections = Object.entries(commands).map(
    ([name, c]) => `## scribe ${name}\n\n\`\`\`text\nscribe ${c.usage}\n\`\`\`\n\n${mdxSafe(c.summary)}\n`,
  );
  return [
    frontmatter({
      title: 'CLI reference',
      description: 'The scribe operator commands: projects, keys, jobs, automations, log import.',
      source: "the CLI's usage lines and summaries in src/cli/",
    }),
    'Run the operator CLI from the checkout as `npx scribe <command>` (or `npm run scribe -- <command>`: npm reads ',
    'flags before a `--` as its own). It uses the same `DATABASE_URL` as the server and applies pending migrations ',
    'before it touches the database. The `job` and `automation` commands call a running Scribe through its public ',
    'API instead (`SCRIBE_URL`, `SCRIBE_API_KEY`; see [Configuration](configuration.md)).\n\n',
    '`npx scribe --help` lists every command, `npx scribe <command> --help` prints one with what it does, and ',
    '`npx scribe <group> --help` (`project`, `key`, `job`, …) the commands of a group.\n\n',
    'Exit codes: `0` success, `1` the operation failed (for example an unknown id), `2` usage or configuration error.\n\n',
    sections.join('\n'),
  ].join('');
}

type OpenApiDocument = ReturnType<typeof apiDocument>;

export function openApiDocument(): OpenApiDocument {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return apiDocument(version);
}

interface Operation {
  summary: string;
  description?: string;
  tags: string[];
  'x-scribe-scope'?: string;
  parameters: { name: string; in: string; required: boolean; description?: string; schema?: ParameterSchema }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { description: string; content?: Record<string, unknown> }>;
}

interface ParameterSchema {
  type?: string;
  enum?: unknown[];
  pattern?: string;
}

/** What a parameter's schema accepts, for a parameter the document gives no description. */
function schemaSummary(schema: ParameterSchema | undefined): string {
  if (schema?.enum) return `one of ${schema.enum.map((v) => `\`${String(v)}\``).join(', ')}`;
  if (schema?.pattern === '^\\d+$') return 'a whole number (ASCII digits)';
  if (schema?.pattern) return `${schema.type ?? 'string'} matching \`${schema.pattern}\``;
  return schema?.type ?? '';
}

function operationSection(method: string, route: string, op: Operation): string {
  const lines = [`### \`${method.toUpperCase()} ${route}\`\n`, `${mdxSafe(op.summary)}\n`];
  if (op.description) lines.push(`${mdxSafe(op.description)}\n`);
  lines.push(op['x-scribe-scope'] ? `Key scope: \`${op['x-scribe-scope']}\`.\n` : 'No API key.\n');
  if (op.parameters.length) {
    lines.push('| Parameter | In | Required | Meaning |\n| --- | --- | --- | --- |');
    for (const p of op.parameters)
      lines.push(
        `| \`${p.name}\` | ${p.in} | ${p.required ? 'yes' : 'no'} | ${cell(p.description ?? schemaSummary(p.schema))} |`,
      );
    lines.push('');
  }
  if (op.requestBody)
    lines.push(
      `Body: ${Object.keys(op.requestBody.content)
        .map((t) => `\`${t}\``)
        .join(' or ')}.\n`,
    );
  lines.push('| Status | Meaning |\n| --- | --- |');
  for (const [status, response] of Object.entries(op.responses))
    lines.push(
      `| ${status} | ${cell(response.description)}${
        response.content
          ? ` (${Object.keys(response.content)
              .map((t) => `\`${t}\``)
              .join(', ')})`
          : ''
      } |`,
    );
  return `${lines.join('\n')}\n`;
}

export function apiReferencePage(document: OpenApiDocument): string {
  const byTag = new Map<string, string[]>();
  for (const [route, methods] of Object.entries(document.paths))
    for (const [method, op] of Object.entries(methods as Record<string, Operation>)) {
      const tag = op.tags[0] ?? 'Other';
      byTag.set(tag, [...(byTag.get(tag) ?? []), operationSection(method, route, op)]);
    }
  const sections = [...byTag].map(([tag, ops]) => `## ${mdxSafe(tag)}\n\n${ops.join('\n')}`);
  return [
    frontmatter({
      title: 'API reference',
      description: 'Every route Scribe serves, from its OpenAPI document.',
      source: 'the OpenAPI document (src/http/openapi/build-openapi.ts)',
    }),
    'Every route Scribe serves. The same document is served by a running Scribe at `GET /openapi.json` (rendered at ',
    '`/docs`) and kept here as [openapi.json](openapi.json), which the docs site renders as interactive pages. ',
    'Authentication, errors, timeouts and paging rules common to every route are in [API conventions](api.md).\n\n',
    sections.join('\n'),
  ].join('');
}

/** Every generated page, by its path relative to the repository root. */
export function generatedPages(): Map<string, string> {
  const document = openApiDocument();
  return new Map([
    ['docs/configuration.md', configurationPage()],
    ['docs/cli.md', cliPage()],
    ['docs/openapi.json', `${JSON.stringify(document, null, 2)}\n`],
    ['docs/api-reference.md', apiReferencePage(document)],
  ]);
}

/** The generated pages whose file in `root` differs from what the code gives now. */
export function stalePages(root: string, pages: Map<string, string> = generatedPages()): string[] {
  return [...pages]
    .filter(([file, text]) => {
      const at = path.join(root, file);
      return !fs.existsSync(at) || fs.readFileSync(at, 'utf8') !== text;
    })
    .map(([file]) => file);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  if (process.argv.includes('--check')) {
    const stale = stalePages(ROOT);
    if (stale.length) {
      console.error(`generated docs differ from the code: ${stale.join(', ')}; run npm run docs:generate`);
      process.exit(1);
    }
    console.log('generated docs match the code');
  } else {
    for (const [file, text] of generatedPages()) {
      fs.mkdirSync(path.dirname(path.join(ROOT, file)), { recursive: true });
      fs.writeFileSync(path.join(ROOT, file), text);
      console.log(`wrote ${file}`);
    }
  }
}
