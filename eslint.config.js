// ESLint for the web client: plain ES modules that the browser runs as they are (no build step).
// `make lint` runs it; package.json pins the versions.
import js from "@eslint/js";
import globals from "globals";

const WEB = ["src/partygames/web/**/*.js", "src/partygames/games/*/web/**/*.js"];

export default [
  { ignores: ["src/partygames/web/vendor/**", "tests/browser/vendor/**", "node_modules/**", ".venv/**", "build/**", "dist/**"] },
  { ...js.configs.recommended, files: [...WEB, "eslint.config.js"] },
  {
    files: WEB,
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: globals.browser },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    rules: {
      // `const { anyOf, ...rest } = field` is how a key is left out of a copy.
      "no-unused-vars": ["error", { ignoreRestSiblings: true }],
    },
  },
  { files: ["eslint.config.js"], languageOptions: { sourceType: "module", globals: globals.node } },
];
