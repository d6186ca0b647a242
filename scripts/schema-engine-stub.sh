#!/bin/sh
# Stands in for the native schema engine the prisma CLI would download: `prisma generate` only asks its version.
# Migrations are made by Prisma's WebAssembly engine instead (scripts/db-schema-engine.ts) and applied by
# src/db/migrate.ts.
echo "schema-engine-cli 0.0.0-offline-stub"
