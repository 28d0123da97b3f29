#!/usr/bin/env bash
# Quick start: install cf-guidance into .venv, wire it into a demo repository, and watch the
# wired hook deny a dangerous command, deny a CLAUDE.md rule, and allow a safe command.
# Usage: scripts/quickstart.sh            (CF_GUIDANCE_VENV=DIR picks another venv)
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
VENV="${CF_GUIDANCE_VENV:-.venv}"

if [ ! -x "$VENV/bin/python" ]; then
    echo "== creating $VENV"
    python3 -m venv "$VENV"
fi
VENV="$(cd "$VENV" && pwd)"
if ! "$VENV/bin/cf-guidance" --version >/dev/null 2>&1; then
    echo "== pip install ."
    "$VENV/bin/python" -m pip install --quiet --upgrade pip >/dev/null 2>&1 || true
    "$VENV/bin/python" -m pip install --quiet "$REPO"
fi

DEMO="$(mktemp -d "${TMPDIR:-/tmp}/cf-guidance demo.XXXXXX")"  # a space on purpose: paths are quoted
echo "== demo repository: $DEMO"
git init -q "$DEMO"
if [ -f "$REPO/CLAUDE.md.example" ]; then
    cp "$REPO/CLAUDE.md.example" "$DEMO/CLAUDE.md"
else
    printf '# Demo\n\n## Safety\n\n- Never run `git push --force`.\n' >"$DEMO/CLAUDE.md"
fi

# The committed wiring (init's default, --scope project) names no path of this machine: its hooks
# find cf-guidance-hook on PATH, as they do after `pipx install .`. Here it is the venv's.
export PATH="$VENV/bin:$PATH"
echo "== cf-guidance init"
"$VENV/bin/cf-guidance" init --target "$DEMO"

# The exact command init wrote for PreToolUse Bash, run as Claude Code runs it.
HOOK="$("$VENV/bin/python" - "$DEMO" <<'EOF'
import json, sys
settings = json.load(open(sys.argv[1] + "/.claude/settings.json"))
print(next(g["hooks"][0]["command"] for g in settings["hooks"]["PreToolUse"] if g.get("matcher") == "Bash"))
EOF
)"
echo "== wired hook: $HOOK"

pipe() {
    local command="$1"
    local event
    event="$("$VENV/bin/python" -c 'import json, sys; print(json.dumps({"session_id": "quickstart", "cwd": sys.argv[1], "hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": sys.argv[2]}, "tool_use_id": "toolu_quickstart"}))' "$DEMO" "$command")"
    echo
    echo "\$ $command"
    local out
    out="$(printf '%s\n' "$event" | CLAUDE_PROJECT_DIR="$DEMO" bash -c "$HOOK")"
    if [ -z "$out" ]; then
        echo "  -> allowed (exit 0, no output)"
    else
        echo "  -> $out"
    fi
}

pipe 'rm -rf ~/'
pipe 'git push --force origin main'
pipe 'git status'
echo
echo "The demo repository stays at: $DEMO"
echo "Its hooks find cf-guidance-hook on PATH: to open it with Claude Code, run \`pipx install .\` or put $VENV/bin on PATH."
