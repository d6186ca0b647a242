import { sourceKind } from '../../../src/reviews/impact/source-kind.js';

describe('sourceKind', () => {
  it('tells code by language, config by format, and skips tests, locks, manifests, generated files and prose', () => {
    expect(sourceKind('src/client.ts')).toEqual({ kind: 'code', language: 'ts' });
    expect(sourceKind('ledger/_client.py')).toEqual({ kind: 'code', language: 'python' });
    expect(sourceKind('internal/cmd/deploy.go')).toEqual({ kind: 'code', language: 'go' });
    expect(sourceKind('src/main.rs')).toEqual({ kind: 'code', language: 'rust' });
    expect(sourceKind('Dockerfile')).toEqual({ kind: 'code', language: 'shell' });
    expect(sourceKind('config/app.yml')).toEqual({ kind: 'config', format: 'yaml' });
    expect(sourceKind('.env.example')).toEqual({ kind: 'config', format: 'env' });
    for (const skipped of [
      'src/client.test.ts',
      'tests/test_x.py',
      'pkg/x_test.go',
      'yarn.lock',
      'package.json',
      'dist/index.js',
      'docs/guide.md',
      'CHANGELOG.md',
    ])
      expect(sourceKind(skipped)).toEqual({ kind: 'skip' });
  });
});
