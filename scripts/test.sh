#!/usr/bin/env bash
# Install everything the test suite needs (venv, package, pinned Claude Code) and run it.
# Used by the README's Quick start and by CI (.ci/run). Fails when any test fails or none ran.
# The tests get a venv of their own (.venv-test, an editable install): the quick start's .venv,
# whose interpreter a demo repository's hooks may name, is never touched.
set -euo pipefail
cd "$(dirname "$0")/.."

CLAUDE_CODE_VERSION="${CLAUDE_CODE_VERSION:-2.1.328}"
VENV="${CF_GUIDANCE_TEST_VENV:-.venv-test}"

if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
"$VENV/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
"$VENV/bin/python" -m pip install --quiet -e ".[test]"

# The real Claude Code for the end-to-end tests, pinned; its platform package ships a native binary.
CLAUDE_PREFIX=".tools/claude-code"
if [ ! -x "$CLAUDE_PREFIX/node_modules/.bin/claude" ] || \
   ! grep -q "\"version\": \"$CLAUDE_CODE_VERSION\"" "$CLAUDE_PREFIX/node_modules/@anthropic-ai/claude-code/package.json" 2>/dev/null; then
    if command -v npm >/dev/null 2>&1; then
        mkdir -p "$CLAUDE_PREFIX"
        npm install --silent --no-audit --no-fund --prefix "$CLAUDE_PREFIX" \
            "@anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >/dev/null 2>&1 \
            || echo "warning: could not install @anthropic-ai/claude-code@$CLAUDE_CODE_VERSION" >&2
    else
        echo "warning: npm not found; end-to-end tests need the claude binary" >&2
    fi
fi
# Codex CLI for the Codex end-to-end test (its hooks are Claude-compatible), pinned likewise.
CODEX_VERSION="${CODEX_VERSION:-0.169.0}"
CODEX_PREFIX=".tools/codex"
if [ ! -x "$CODEX_PREFIX/node_modules/.bin/codex" ] && command -v npm >/dev/null 2>&1; then
    mkdir -p "$CODEX_PREFIX"
    npm install --silent --no-audit --no-fund --prefix "$CODEX_PREFIX" "@openai/codex@$CODEX_VERSION" >/dev/null 2>&1 \
        || echo "warning: could not install @openai/codex@$CODEX_VERSION (the Codex end-to-end test will skip)" >&2
fi

if [ -x "$CLAUDE_PREFIX/node_modules/.bin/claude" ]; then
    export CF_GUIDANCE_CLAUDE_BIN="$PWD/$CLAUDE_PREFIX/node_modules/.bin/claude"
fi

# Headless Chromium renders the HTML reports in a test, and bubblewrap runs the headless
# runner's --sandbox tests; under CI both must be there.
if [ "${CI:-}" = "true" ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = "0" ]; then
    missing=""
    command -v chromium >/dev/null 2>&1 || missing="$missing chromium"
    command -v bwrap >/dev/null 2>&1 || missing="$missing bubblewrap"
    if [ -n "$missing" ]; then
        echo "== apt-get install$missing"
        # shellcheck disable=SC2086  # one package name per word
        (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing) >/dev/null 2>&1 \
            || echo "warning: could not install$missing (the HTML report and --sandbox tests will fail under CI)" >&2
    fi
fi

echo "== mypy --strict"
bash scripts/typecheck.sh "$VENV/bin/python"

echo "== pytest"
set +e
"$VENV/bin/python" -m pytest "$@"
rc=$?
set -e
if [ "$rc" -eq 5 ]; then
    echo "error: pytest collected no tests" >&2
    exit 1
fi
exit "$rc"
