import { extractIdentifiers, type Identifier } from '../../../src/reviews/impact/extract-identifiers.js';
import { sourceKind } from '../../../src/reviews/impact/source-kind.js';

const ids = (line: string, file: string): string[] =>
  extractIdentifiers(line, sourceKind(file), file).map((id: Identifier) => `${id.kind}:${id.identifier}`);

describe('extractIdentifiers', () => {
  it('reads exported symbols in TypeScript, Python, Go and Rust, and leaves private names out', () => {
    expect(ids('export async function createClient(options: Options) {', 'src/client.ts')).toEqual([
      'symbol:createClient',
    ]);
    expect(ids('export { NoteKit, isRetryable as isTransient } from "./x.js";', 'src/index.ts')).toEqual([
      'symbol:NoteKit',
      'symbol:isTransient',
    ]);
    expect(ids('  async archive(id: string): Promise<void> {', 'src/notes.ts')).toEqual(['symbol:archive']);
    expect(ids('  if (ready) {', 'src/notes.ts')).toEqual([]);
    expect(ids('class RateLimitError(APIStatusError):', 'src/ledger/_exceptions.py')).toEqual([
      'symbol:RateLimitError',
    ]);
    expect(ids('    def list_all(self, account_id=None):', 'src/ledger/transfers.py')).toEqual(['symbol:list_all']);
    expect(ids('    def _page(self):', 'src/ledger/transfers.py')).toEqual([]);
    expect(ids('func (c *Client) Deploy(ctx context.Context) error {', 'internal/api/client.go')).toEqual([
      'symbol:Deploy',
    ]);
    expect(ids('func deployInternal() error {', 'internal/api/client.go')).toEqual([]);
    expect(ids('pub async fn accept_loop(listener: TcpListener) {', 'src/server.rs')).toEqual(['symbol:accept_loop']);
    expect(ids('fn helper() {}', 'src/server.rs')).toEqual([]);
  });

  it('reads CLI flags with their dashes, as cobra and clap declare them, and subcommands', () => {
    expect(ids(`  .option('--dry-run', 'Print the plan only')`, 'src/cli.ts')).toContain('cli-flag:--dry-run');
    expect(ids('@click.option("--quiet", is_flag=True)', 'src/cli.py')).toEqual(['cli-flag:--quiet']);
    expect(ids('\tcmd.Flags().StringVar(&opts.region, "region", "us-east-1", "Region")', 'cmd/deploy.go')).toContain(
      'cli-flag:--region',
    );
    expect(ids('    #[arg(long = "config-file")]', 'src/cli.rs')).toEqual(['cli-flag:--config-file']);
    expect(ids('\t\tUse:   "rollback",', 'cmd/rollback.go')).toEqual(['symbol:rollback']);
    expect(ids('// --not-a-flag in a comment', 'src/cli.ts')).toEqual([]);
  });

  it('reads environment variables from the ways each language reads them, and from .env files', () => {
    expect(ids('const token = process.env.ACME_TOKEN;', 'src/auth.ts')).toEqual(['env-var:ACME_TOKEN']);
    expect(ids('key = os.environ.get("LEDGER_API_KEY")', 'src/ledger/_client.py')).toContain('env-var:LEDGER_API_KEY');
    expect(ids('\tif t := os.Getenv("PORT"); t != "" {', 'main.go')).toEqual(['env-var:PORT']);
    expect(ids('let level = env::var("RUST_LOG")?;', 'src/main.rs')).toEqual(['env-var:RUST_LOG']);
    expect(ids('DATABASE_URL=postgres://localhost/app', '.env.example')).toEqual(['env-var:DATABASE_URL']);
    expect(ids('\tToken string `env:"SKY_TOKEN"`', 'internal/config.go')).toContain('env-var:SKY_TOKEN');
  });

  it('reads configuration keys from config files, schema fields, struct tags and lookups', () => {
    expect(ids('  max_connections: 100', 'config/default.yaml')).toEqual(['config-key:max_connections']);
    expect(ids('line_length = 88', 'defaults.toml')).toEqual(['config-key:line_length']);
    expect(ids('  "retryLimit": 3,', 'config.json')).toEqual(['config-key:retryLimit']);
    expect(ids('  maxRetries: z.number().int().default(3),', 'src/schema.ts')).toEqual(['config-key:maxRetries']);
    expect(ids('    pub connection_limit: usize,', 'src/config/server.rs')).toEqual(['config-key:connection_limit']);
    expect(ids('\tMaxRetries int `yaml:"max_retries"`', 'internal/settings.go')).toContain('config-key:max_retries');
    expect(ids('style = section.get("keyword_style", "upper")', 'src/tidy/config.py')).toContain(
      'config-key:keyword_style',
    );
    expect(ids('  pageSize?: number;', 'src/resources/notes.ts')).toEqual(['config-key:pageSize']);
  });

  it('reads routes in routing calls or under a versioned prefix, and not ordinary paths', () => {
    expect(ids(`router.get('/users/:id', show);`, 'src/routes.ts')).toEqual(['http-route:/users/:id']);
    expect(ids('@app.post("/v1/refunds")', 'app/api.py')).toEqual(['http-route:/v1/refunds']);
    expect(ids('        .route("/readyz", get(ready))', 'src/admin.rs')).toEqual(['http-route:/readyz']);
    expect(ids(`const url = base + '/v2/items';`, 'src/client.ts')).toEqual(['http-route:/v2/items']);
    expect(ids(`const dir = '/tmp/cache';`, 'src/cache.ts')).toEqual([]);
  });

  it('reads error and log messages as their longest constant fragment, and error codes beside them', () => {
    expect(ids('return fmt.Errorf("no project linked to %s: run skyctl link", dir)', 'x.go')).toEqual([
      'message:no project linked to',
    ]);
    expect(ids(`throw new ApiError(402, 'insufficient_funds', 'The balance is too low for this.');`, 'x.ts')).toEqual([
      'message:insufficient_funds',
      'message:The balance is too low for this',
    ]);
    expect(ids('log.info("ok")', 'x.py')).toEqual([]);
  });

  it('reads file paths and config file names in literals', () => {
    expect(ids('#[arg(long, default_value = "/etc/relayd/config.toml")]', 'src/cli.rs')).toEqual([
      'file-path:/etc/relayd/config.toml',
    ]);
    expect(ids(`const file = '.skyport/project.json';`, 'src/project.ts')).toEqual(['file-path:.skyport/project.json']);
    expect(ids(`load('settings.yaml')`, 'src/load.ts')).toEqual(['file-path:settings.yaml']);
  });

  it('reads nothing from tests, lock files, manifests and prose', () => {
    for (const file of [
      'src/client.test.ts',
      'tests/test_client.py',
      'pkg/api_test.go',
      'package-lock.json',
      'Cargo.toml',
      'README.md',
    ])
      expect(ids(`export function createClient() { process.env.ACME_TOKEN; '--force' }`, file)).toEqual([]);
  });
});
