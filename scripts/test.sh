#!/usr/bin/env bash
# The whole suite: lint, types, unit, integration (PostgreSQL + embedded), browser end to end.
set -euo pipefail
export NEXT_TELEMETRY_DISABLED=1
step() { printf '\n=== %s\n' "$1"; }

step "lint"
npx eslint .
npx prettier --check . >/dev/null || { npx prettier --check . || true; echo "prettier: files above need 'npm run format'"; exit 1; }
npm run --silent lint:cycles
npm run --silent lint:migrations

step "typecheck"
npx tsc --noEmit

step "unit + integration tests (PostgreSQL at ${TEST_DATABASE_ADMIN_URL:-127.0.0.1:5432})"
mkdir -p .test-reports
npx vitest run --reporter=default --reporter=json --outputFile.json=.test-reports/vitest.json

step "build"
npx next build

step "end-to-end (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_NAME=.test-reports/playwright.json npx playwright test --reporter=list,json

SUITE_SECONDS=$SECONDS node -e '
const fs = require("fs");
const v = JSON.parse(fs.readFileSync(".test-reports/vitest.json", "utf8"));
const p = JSON.parse(fs.readFileSync(".test-reports/playwright.json", "utf8"));
const passed = v.numPassedTests + (p.stats.expected || 0);
const failed = v.numFailedTests + (p.stats.unexpected || 0);
console.log(`\nunit+integration ${v.numPassedTests} ok, e2e ${p.stats.expected} ok, suite took ${process.env.SUITE_SECONDS} s`);
console.log(`tests: ${passed} passed, ${failed} failed`);
'
