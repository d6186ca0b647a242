import type { Language, SourceKind } from './source-kind.js';

/**
 * The identifiers one line of source names, by kind. Pure. Each extractor looks for a declaration or a literal in a
 * telling place, never for any word: `export function createClient`, `.option('--dry-run')`, `os.Getenv("API_KEY")`,
 * `app.get('/v1/users/:id')`, `throw new Error('…')`. A later stage decides whether the identifier was added, removed,
 * renamed or changed, and whether the docs mention it.
 */
export type IdentifierKind = 'symbol' | 'cli-flag' | 'env-var' | 'config-key' | 'http-route' | 'message' | 'file-path';

export interface Identifier {
  identifier: string;
  kind: IdentifierKind;
}

const STRING_LITERAL = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\\n]|\\.)*)`/g;

function literals(text: string): string[] {
  return [...text.matchAll(STRING_LITERAL)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

const SYMBOL_DECLARATIONS: Record<Language, RegExp[]> = {
  ts: [
    /^\s*export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:abstract\s+)?(?:function\*?|class|const|let|var|interface|type|enum|namespace)\s+([A-Za-z_$][\w$]*)/,
    /^\s*(?:module\.)?exports\.([A-Za-z_$][\w$]*)\s*=/,
  ],
  // Top-level definitions and public methods (one indent level); a leading underscore marks a private name.
  python: [
    /^(?:async\s+)?(?:def|class)\s+([A-Za-z][\w]*)/,
    /^ {4}(?:async\s+)?def\s+([A-Za-z][\w]*)\s*\(/,
    /^([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\s*(?::[^=]+)?=/,
  ],
  go: [
    /^func\s+(?:\([^)]*\)\s*)?([A-Z]\w*)/,
    /^(?:type|var|const)\s+([A-Z]\w*)/,
    // Members of a const/var/type block, and exported struct fields.
    /^\t([A-Z]\w*)\s+(?:=|[A-Za-z*[\]]|func\b)/,
  ],
  rust: [
    /^\s*pub(?:\([^)]*\))?\s+(?:async\s+)?(?:unsafe\s+)?(?:fn|struct|enum|trait|type|const|static|mod|macro_rules!)\s+([A-Za-z_]\w*)/,
  ],
  java: [
    /^\s*public\s+(?:(?:static|final|abstract|synchronized|sealed)\s+)*(?:class|interface|enum|record|@interface)\s+([A-Za-z_]\w*)/,
    /^\s*public\s+(?:(?:static|final|abstract|synchronized|default)\s+)*(?:<[^>]+>\s+)?[\w<>[\],.? ]+\s+([a-zA-Z_]\w*)\s*\(/,
  ],
  ruby: [/^\s*(?:def\s+(?:self\.)?|class\s+|module\s+)([A-Za-z_]\w*[?!]?)/],
  shell: [],
  other: [],
};

const FLAG = /(?<![\w-])--([a-z0-9][a-z0-9]*(?:[-_][a-z0-9]+)*)(?![\w-])/gi;
const UPPER_SNAKE = /(?<![\w$.])([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?![\w$])/g;
const ENV_ACCESS =
  /(?:process\.env\.|process\.env\[\s*["'`]|import\.meta\.env\.|os\.environ(?:\.get)?\s*[[(]\s*["']|os\.getenv\(\s*["']|os\.Getenv\(\s*"|os\.LookupEnv\(\s*"|env::var(?:_os)?\(\s*"|System\.getenv\(\s*"|ENV\[\s*["']|ENV\.fetch\(\s*["']|\$\{?)([A-Z][A-Z0-9_]*)/g;
const ENV_TAG = /\benv:"([A-Z][A-Z0-9_]*)/g;
const CONFIG_TAG = /\b(?:yaml|json|toml|mapstructure|koanf|hcl)\s*:\s*"([A-Za-z_][\w-]*)/g;
const ROUTE_CONTEXT =
  /\.(?:get|post|put|patch|delete|del|head|options|all|route|handle|handleFunc|HandleFunc|Handle|GET|POST|PUT|PATCH|DELETE|Group|group|use|add_url_rule|add_api_route|api_route|register)\s*\(|#\[(?:get|post|put|patch|delete|route)\s*\(|@(?:Get|Post|Put|Patch|Delete|Request)Mapping|@(?:Get|Post|Put|Patch|Delete)\s*\(|\b(?:path|re_path|url|route|Route|endpoint|ENDPOINT|Path)\s*\(|\bpath\s*[:=]/;
const ROUTE = /^\/(?:[A-Za-z0-9_.~{}:<>*-]+\/?)*$/;
const MESSAGE_CONTEXT =
  /\b(?:throw|raise|errors\.New|fmt\.Errorf|Errorf|\w*Error|\w*Exception|panic!?|bail!|anyhow!|ensure!|eprintln!|println!|log(?:ger)?\.\w+|logging\.\w+|console\.(?:log|warn|error|info)|warn|fatal|abort|exit|die|print|echo|printf|Println|Printf|Fatalf?|reject|message|msg)\b/;
const PLACEHOLDER = /\$\{[^}]*\}|#\{[^}]*\}|\{[^}]*\}|%[-+ #0-9.]*[sdvqfixXeEgGtTbpc%]|%\(\w+\)[sdr]/g;
const PATH_LITERAL =
  /^(?:~|\.{1,2})?\/?(?:[\w.@-]+\/)+[\w.@-]*[\w-]\.[A-Za-z0-9]{1,6}$|^(?:~\/)?\.[\w-]+(?:\/[\w.-]+)*$/;
const CONFIG_FILE_NAME = /^[\w-]+\.(?:json|ya?ml|toml|ini|conf|cfg|env|rc)$/;
const CONFIG_CONTEXT =
  /\b(?:config|conf|cfg|settings|setting|options|opts|viper|getString|getInt|getBool|getBoolean|getenv|setdefault|key|field|section)\b|\.get\(/i;
const SNAKE_OR_DOTTED = /^[a-z][a-z0-9]*(?:[._][a-z][a-z0-9]*)+$|^[a-z][a-z0-9]*(?:\.[a-z][A-Za-z0-9]*)+$/;
const SCHEMA_FIELD =
  /^\s*(?:pub(?:\([^)]*\))?\s+|readonly\s+)?([a-z][A-Za-z0-9]*(?:_[a-z0-9]+)*)\s*[?]?:\s*(?:z\.|t\.|Joi\.|yup\.|schema\.|Field\(|(?:int|str|bool|float|Optional\[|list\[|dict\[|Literal\[)[^=]*=|u\d+|i\d+|bool|String|Option<|Vec<|usize|f64)/;

/** Flags declared without their dashes: cobra/pflag (`Flags().StringVar(&v, "region", …)`), clap (`long = "region"`). */
const BARE_FLAGS = [
  /\bFlags\(\)\.\w+\(\s*(?:&[\w.]+\s*,\s*)?"([a-z][\w-]*)"/g,
  /\blong\s*=\s*"([a-z][\w-]*)"/g,
  /\bflag\.\w+\(\s*(?:&[\w.]+\s*,\s*)?"([a-z][\w-]*)"/g,
];
/** Subcommands: cobra `Use: "deploy"`, commander `.command('deploy')`, argparse `add_parser("deploy")`, click. */
const COMMANDS = [
  /\bUse:\s*"([a-z][\w-]*)/g,
  /\.command\(\s*['"]([a-z][\w-]*)/g,
  /\badd_parser\(\s*['"]([a-z][\w-]*)/g,
  /@\w+\.command\(\s*(?:name\s*=\s*)?['"]([a-z][\w-]*)/g,
  /#\[command\(\s*name\s*=\s*"([a-z][\w-]*)"/g,
];
/** A field of a struct or class in a file about configuration: a key users write. */
const CONFIG_PATH = /(^|\/)[^/]*(config|settings|options)[^/]*(\/|$)/i;
const FIELD = /^\s+(?:pub(?:\([^)]*\))?\s+|readonly\s+)?([a-z][A-Za-z0-9]*(?:_[a-z0-9]+)*)\s*[?]?:\s*[A-Za-z[(<]/;
/** TypeScript members a caller uses: a public method (`  async archive(id: string): Promise<void> {`). */
const TS_METHOD =
  /^\s{2,4}(?:public\s+)?(?:static\s+)?(?:async\s+)?(?:get\s+|set\s+)?([a-z][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)?[^;]*\{\s*$/;
const TS_KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'catch', 'function', 'constructor', 'return', 'with']);
/** A property of an interface or type (`  pageSize?: number;`): an option callers pass. */
const TS_PROPERTY = /^\s+(?:readonly\s+)?([a-z][\w$]*)\??\s*:\s*[^;=]+;\s*$/;
/** Module specifiers are the code's own layout, not a path a user types. */
const IMPORT = /^\s*(?:import|export)\b.*\bfrom\b|^\s*import\s*["'(]|\brequire\(|\bimport\(/;
const CODE_LIKE_LITERAL = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

function messageFragment(literal: string): string | undefined {
  const fragments = literal
    .replace(/\\[nrt]/g, ' ')
    .split(PLACEHOLDER)
    .map((f) =>
      f
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^[:,;.\s-]+|[:,;.!?\s-]+$/g, ''),
    )
    .filter((f) => f.length >= 14 && f.split(' ').length >= 3);
  return fragments.sort((a, b) => b.length - a.length)[0];
}

function configFileKeys(text: string, format: 'yaml' | 'json' | 'toml' | 'ini' | 'env'): Identifier[] {
  if (format === 'env') {
    const name = /^\s*(?:export\s+)?([A-Z][A-Z0-9_]*)\s*=/.exec(text)?.[1];
    return name ? [{ identifier: name, kind: 'env-var' }] : [];
  }
  const key =
    format === 'json'
      ? /^\s*"([A-Za-z_][\w.-]*)"\s*:/.exec(text)?.[1]
      : format === 'yaml'
        ? /^\s*(?:-\s+)?([A-Za-z_][\w.-]*|\/[^\s:]*)\s*:(?:\s|$)/.exec(text)?.[1]
        : /^\s*([A-Za-z_][\w.-]*)\s*=/.exec(text)?.[1];
  if (!key) return [];
  if (key.startsWith('/')) return ROUTE.test(key) ? [{ identifier: key, kind: 'http-route' }] : [];
  if (/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(key)) return [{ identifier: key, kind: 'env-var' }];
  return [{ identifier: key, kind: 'config-key' }];
}

function isRoute(literal: string, line: string): boolean {
  if (!ROUTE.test(literal) || literal === '/' || /\.[a-z0-9]{1,5}$/i.test(literal)) return false;
  if (!/[A-Za-z]{2}/.test(literal)) return false;
  return ROUTE_CONTEXT.test(line) || /^\/(?:v\d+|api)(?:\/|$)/.test(literal);
}

/** Identifiers on one line of a changed source file. */
export function extractIdentifiers(text: string, source: SourceKind, filename = ''): Identifier[] {
  if (source.kind === 'skip') return [];
  const found: Identifier[] = [];
  const add = (identifier: string, kind: Identifier['kind']) => {
    if (!found.some((f) => f.identifier === identifier && f.kind === kind)) found.push({ identifier, kind });
  };
  const trimmed = text.trim();
  const comment = /^(?:\/\/|#(?!\[)|\/?\*|<!--|--\s)/.test(trimmed);
  if (source.kind === 'config') {
    if (!comment) for (const id of configFileKeys(text, source.format)) add(id.identifier, id.kind);
  } else if (!comment) {
    for (const pattern of SYMBOL_DECLARATIONS[source.language]) {
      const name = pattern.exec(text)?.[1];
      if (name && !name.startsWith('_')) add(name, 'symbol');
    }
    if (source.language === 'ts') {
      const method = TS_METHOD.exec(text)?.[1];
      if (method && !TS_KEYWORDS.has(method)) add(method, 'symbol');
      const property = TS_PROPERTY.exec(text)?.[1];
      if (property) add(property, 'config-key');
      const list = /^\s*export\s*(?:type\s*)?\{([^}]*)\}/.exec(text)?.[1];
      for (const part of list?.split(',') ?? []) {
        const name = /(?:\bas\s+)?([A-Za-z_$][\w$]*)\s*$/.exec(part.trim())?.[1];
        if (name && name !== 'default') add(name, 'symbol');
      }
    }
    const field = SCHEMA_FIELD.exec(text)?.[1] ?? (CONFIG_PATH.test(filename) ? FIELD.exec(text)?.[1] : undefined);
    if (field) add(field, 'config-key');
    for (const pattern of BARE_FLAGS) for (const m of text.matchAll(pattern)) add(`--${m[1]}`, 'cli-flag');
    for (const pattern of COMMANDS) for (const m of text.matchAll(pattern)) add(m[1], 'symbol');
    for (const m of text.matchAll(CONFIG_TAG)) if (m[1] !== '-') add(m[1], 'config-key');
  }
  // Flags, variables, routes, messages and paths live in literals and shell lines, commented or not in config
  // files (an example `.env` often carries them commented out).
  if (!comment || source.kind === 'config') {
    for (const m of text.matchAll(FLAG)) add(`--${m[1]}`, 'cli-flag');
    for (const m of text.matchAll(ENV_ACCESS)) if (m[1].length >= 3) add(m[1], 'env-var');
    for (const m of text.matchAll(ENV_TAG)) add(m[1], 'env-var');
  }
  if (source.kind === 'code' && !comment) {
    // Contexts are read from the code around the literals: a message that says "key" is no config lookup.
    const bare = text.replace(STRING_LITERAL, '""');
    const routeContext = ROUTE_CONTEXT.test(bare);
    const messageContext = MESSAGE_CONTEXT.test(bare);
    const configContext = CONFIG_CONTEXT.test(bare);
    for (const literal of literals(text)) {
      for (const m of literal.matchAll(UPPER_SNAKE)) add(m[1], 'env-var');
      if (isRoute(literal, text)) add(literal, 'http-route');
      else if ((PATH_LITERAL.test(literal) || CONFIG_FILE_NAME.test(literal)) && !IMPORT.test(bare))
        add(literal, 'file-path');
      // An error code (`insufficient_funds`) beside a message is part of what the user reads.
      else if (messageContext && CODE_LIKE_LITERAL.test(literal)) add(literal, 'message');
      else if (configContext && SNAKE_OR_DOTTED.test(literal)) add(literal, 'config-key');
      // A name with two underscores or more (a metric, an event) is never an ordinary word.
      else if (/^[a-z][a-z0-9]*(?:_[a-z0-9]+){2,}$/.test(literal)) add(literal, 'symbol');
      if (messageContext || (!routeContext && literal.length >= 30)) {
        const fragment = messageFragment(literal);
        if (fragment) add(fragment, 'message');
      }
    }
  }
  return found;
}
