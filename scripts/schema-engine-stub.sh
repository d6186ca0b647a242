#!/bin/sh
# Stands in for the native schema engine the prisma CLI would download: `prisma generate` only asks its version.
# Migrations are made and applied by Prisma's WebAssembly engine instead (src/db/schema-engine.ts).
echo "schema-engine-cli 0.0.0-offline-stub"
