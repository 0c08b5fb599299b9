import js from "@eslint/js";
import tseslint from "typescript-eslint";

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
  { files: ["**/*.mjs", "**/*.js"], ...tseslint.configs.disableTypeChecked },
  // Boundaries: production code never imports tests (the test oracle lives in tests/oracle/). This block
  // uses @typescript-eslint/no-restricted-imports, a rule of its own, so that it neither replaces nor is
  // replaced by the core no-restricted-imports options that other boundary blocks set for the same files.
  {
    files: ["**/*.{ts,tsx,mts,cts,js,mjs,cjs}"],
    ignores: ["tests/**", "e2e/**", "bench/**", "**/*.test.ts"],
    rules: {
      "@typescript-eslint/no-restricted-imports": [
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
