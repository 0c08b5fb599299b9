import js from "@eslint/js";
import tseslint from "typescript-eslint";

// Layer rules (used in the "layers" blocks below): what each layer may not import.
const LAYER = {
  edge: {
    group: ["@/lib/http", "@/lib/http/*"],
    message:
      "lib/http is the HTTP edge: throw from @/lib/errors/domain-error, validate with @/lib/validation.",
  },
  database: {
    group: ["@/lib/db", "@/lib/db-*", "@/lib/generated/prisma/*"],
    allowTypeImports: true,
    message: "Pages and components read through the domain's functions (lib/<domain>), not Prisma.",
  },
  app: {
    group: ["@/app/*"],
    message: "Components do not import from app/: move what they share to lib/ or components/.",
  },
};

export default tseslint.config(
  {
    ignores: [
      "node_modules",
      ".next",
      ".data",
      ".tools",
      "lib/generated",
      "test-results",
      "playwright-report",
      "next-env.d.ts",
      "prisma/engine/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
    },
  },
  {
    files: ["tests/**", "e2e/**", "bench/**", "**/*.test.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  // ---------------------------------------------------------------- layers (edge / domain / UI)
  // The domain throws lib/errors and validates with lib/validation; only the edge (lib/http, app)
  // speaks HTTP. Pages read through domain functions, never the database; components never import app.
  // typescript-eslint's no-restricted-imports, so these patterns never replace (nor get replaced by)
  // the tests boundary's core rule below; within these blocks each file gets one list (ESLint keeps
  // only the last matching block's options for a rule).
  {
    files: ["lib/**", "inngest/**", "scripts/**"],
    ignores: ["lib/http/**"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [LAYER.edge] }] },
  },
  {
    files: ["components/**"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
        "error",
        { patterns: [LAYER.edge, LAYER.database, LAYER.app] },
      ],
    },
  },
  {
    files: ["app/**/page.tsx", "app/**/layout.tsx"],
    rules: { "@typescript-eslint/no-restricted-imports": ["error", { patterns: [LAYER.database] }] },
  },
  // ---------------------------------------------------------------- end of layers
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
  // Boundaries: production code never imports tests (the test oracle lives in tests/oracle/). This block
  // uses the core no-restricted-imports, a rule of its own, so that it neither replaces nor is replaced by
  // the layer blocks' @typescript-eslint/no-restricted-imports options for the same files.
  {
    files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
    ignores: ["tests/**", "e2e/**", "bench/**", "**/*.test.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^(@/tests(/|$)|(\\.{1,2}/)+tests(/|$))",
              message: "Production code does not import tests/: move what both need into lib/.",
            },
          ],
        },
      ],
    },
  },
);
