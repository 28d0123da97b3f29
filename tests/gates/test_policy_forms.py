"""The shell and tool forms a compiled check must match, whatever rule wording produced it.

A check is only as good as the commands it sees: a ban on a script holds however the script is
started (by its path, through any interpreter, under a runner, by `source`), a ban on writing a
place holds for every program that writes there (formatters, `find -delete`, archives unpacked
into it), and a ban on reading a file holds for every reader. Each table pairs forms that must be
stopped with look-alikes that must pass (reading a file is not writing it, naming a path is not
touching it)."""

from __future__ import annotations

import pytest

from cf_guidance.policy.compiler import compile_sources
from tests.gates.support import bash, decide, tool

STOPPED = ("ask", "deny")

#: a script banned by its path: started by path, through a shell or runtime, under a runner
SCRIPT = "- Never run `scripts/publish` yourself.\n"
SCRIPT_EXT = "- Never run `tools/seed.ts`.\n"
SOURCED = "- Never run `./env/load.sh`.\n"
#: a script banned with its interpreter: the same run when started another way
WITH_INTERPRETER = "- Never run `python admin.py flush` yourself.\n"
NODE_SCRIPT = "- Do not run `node tasks/wipe.js`.\n"

SCRIPT_CASES = [
    (SCRIPT, "scripts/publish v2", "deny"),
    (SCRIPT, "./scripts/publish", "deny"),
    (SCRIPT, "bash scripts/publish v2", "deny"),
    (SCRIPT, "sh ./scripts/publish", "deny"),
    (SCRIPT, "bash -e scripts/publish", "deny"),
    (SCRIPT, "source scripts/publish", "deny"),
    (SCRIPT, "cat scripts/publish", "allow"),
    (SCRIPT, "bash scripts/package", "allow"),
    (SCRIPT, "bash -c 'echo publish'", "allow"),
    (SCRIPT_EXT, "npx tsx tools/seed.ts", "deny"),
    (SCRIPT_EXT, "bun run tools/seed.ts", "deny"),
    (SCRIPT_EXT, "deno run -A tools/seed.ts", "deny"),
    (SCRIPT_EXT, "npx ts-node tools/seed.ts", "deny"),
    (SCRIPT_EXT, "node --loader ts-node/esm tools/seed.ts", "deny"),
    (SCRIPT_EXT, "pnpm exec tsx tools/seed.ts", "deny"),
    (SCRIPT_EXT, "npx tsx tools/lint.ts", "allow"),
    (SCRIPT_EXT, "node -e \"console.log('tools/seed.ts')\"", "allow"),
    (SOURCED, ". ./env/load.sh", "deny"),
    (SOURCED, "source env/load.sh && make", "deny"),
    (SOURCED, "shellcheck env/load.sh", "allow"),
    (WITH_INTERPRETER, "python admin.py flush", "deny"),
    (WITH_INTERPRETER, "python3 admin.py flush --noinput", "deny"),
    (WITH_INTERPRETER, "./admin.py flush", "deny"),
    (WITH_INTERPRETER, "uv run admin.py flush", "deny"),
    (WITH_INTERPRETER, "python backend/admin.py flush", "deny"),
    (WITH_INTERPRETER, "cd backend && python admin.py flush", "deny"),
    (WITH_INTERPRETER, "python admin.py shell", "allow"),
    (WITH_INTERPRETER, "cat admin.py", "allow"),
    (NODE_SCRIPT, "node ./tasks/wipe.js --all", "deny"),
    (NODE_SCRIPT, "bun tasks/wipe.js", "deny"),
    (NODE_SCRIPT, "./tasks/wipe.js", "deny"),
    (NODE_SCRIPT, "node tasks/build.js", "allow"),
]


def _verdict(policy: str, command: str) -> str:
    checks = compile_sources(f"# Rules\n\n{policy}")["checks"]
    return decide(bash(command), checks=checks).verdict


@pytest.mark.parametrize(("policy", "command", "expected"), SCRIPT_CASES, ids=[f"{c[1]}->{c[2]}" for c in SCRIPT_CASES])
def test_script_forms(policy: str, command: str, expected: str) -> None:
    assert _verdict(policy, command) == expected


#: a command banned with its options: the options in any spelling the program gives them, and
#: other options (with values no table knows) between its words
RECURSIVE = "- Never run `rm -rf`.\n"
UPLOAD = "- Do not run `flashtool run -t upload`.\n"
VOLUMES = "- Never run `docker compose down -v`.\n"

COMMAND_CASES = [
    (RECURSIVE, "rm -rf dist", "deny"),
    (RECURSIVE, "rm -fr dist", "deny"),
    (RECURSIVE, "rm -Rf dist", "deny"),
    (RECURSIVE, "rm -r -f dist", "deny"),
    (RECURSIVE, "rm --recursive --force dist", "deny"),
    (RECURSIVE, "rm -f dist.log", "allow"),
    (RECURSIVE, "rm -r dist", "allow"),
    (UPLOAD, "flashtool run -e board1 -t upload", "deny"),
    (UPLOAD, "flashtool run -t upload", "deny"),
    (UPLOAD, "flashtool run -e board1", "allow"),
    (UPLOAD, "flashtool check run -t upload", "allow"),
    (VOLUMES, "docker compose -f compose.dev.yml down -v", "deny"),
    (VOLUMES, "docker compose -f compose.dev.yml down", "allow"),
    # a long option's value after `=` or as the next word
    ("- Never run `flashtool run --target upload`.\n", "flashtool run --target=upload", "deny"),
    ("- Never run `flashtool run --target upload`.\n", "flashtool run --target=build", "allow"),
    ("- Never use `docker run --privileged=true`.\n", "docker run --privileged true img", "deny"),
    ("- Never use `docker run --privileged=true`.\n", "docker run img", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "expected"), COMMAND_CASES, ids=[f"{c[1]}->{c[2]}" for c in COMMAND_CASES])
def test_command_forms(policy: str, command: str, expected: str) -> None:
    assert _verdict(policy, command) == expected


#: a banned program run under a wrapper, a runner, a version manager or an environment loader
NO_PIP = "- Never use `pip`.\n"
WRAPPED_CASES = [
    (NO_PIP, "sudo -u dev pip install x", "deny"),
    (NO_PIP, "timeout -s KILL 60 pip install x", "deny"),
    (NO_PIP, "bash -c 'pip install x'", "deny"),
    (NO_PIP, "docker compose exec app pip install x", "deny"),
    (NO_PIP, "mise exec python@3.12 -- pip install x", "deny"),
    (NO_PIP, "asdf exec pip install x", "deny"),
    (NO_PIP, "direnv exec . pip install x", "deny"),
    (NO_PIP, "devbox run pip install x", "deny"),
    (NO_PIP, "dotenv -e .env -- pip install x", "deny"),
    (NO_PIP, "cross-env CI=1 pip install x", "deny"),
    (NO_PIP, "nix develop -c pip install x", "deny"),
    (NO_PIP, "pip3.11 install x", "deny"),
    (NO_PIP, "python3.12 -m pip install x", "deny"),
    (NO_PIP, "mise install", "allow"),
    (NO_PIP, "uv pip install x", "allow"),
    (NO_PIP, "echo pip install x", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "expected"), WRAPPED_CASES, ids=[f"{c[1]}->{c[2]}" for c in WRAPPED_CASES])
def test_wrapped_forms(policy: str, command: str, expected: str) -> None:
    assert _verdict(policy, command) == expected


#: a place not to change: every program that writes, rewrites or deletes there; reading, listing,
#: naming and copying out of it pass
PLACE = "- Never edit files in `out/`.\n"
#: a place where nothing new is made: a folder made there is something new
NEW_THERE = "- Do not create files in `gen/`.\n"

PATH_CASES = [
    (PLACE, "find out -name '*.o' -delete", "deny"),
    (PLACE, "find out -type f -exec rm -f {} +", "deny"),
    (PLACE, "find out -name '*.o' | xargs rm", "deny"),
    (PLACE, "ls out | xargs rm -f", "deny"),
    (PLACE, "npx prettier --write out/app.js", "deny"),
    (PLACE, "npx eslint --fix out/", "deny"),
    (PLACE, "black out/", "deny"),
    (PLACE, "ruff format out/a.py", "deny"),
    (PLACE, "ruff check --fix out/a.py", "deny"),
    (PLACE, "gofmt -w out/a.go", "deny"),
    (PLACE, "clang-format -i out/a.c", "deny"),
    (PLACE, "rubocop -A out/a.rb", "deny"),
    (PLACE, "dos2unix out/run.sh", "deny"),
    (PLACE, "unzip assets.zip -d out", "deny"),
    (PLACE, "wget -P out https://example.com/a.tgz", "deny"),
    (PLACE, "patch out/a.c < fix.diff", "deny"),
    (PLACE, "yq -i '.port = 8080' out/app.yaml", "deny"),
    (PLACE, "jq '.a = 1' out/app.json | sponge out/app.json", "deny"),
    (PLACE, "sd before after out/notes.txt", "deny"),
    (PLACE, "yq '.port' out/app.yaml", "allow"),
    (PLACE, "sd --preview before after out/notes.txt", "allow"),
    (PLACE, "black --check out/", "allow"),
    (PLACE, "ruff format --check out/a.py", "allow"),
    (PLACE, "prettier --check out/app.js", "allow"),
    (PLACE, "eslint out/", "allow"),
    (PLACE, "gofmt -l out/a.go", "allow"),
    (PLACE, "terraform fmt -check out", "allow"),
    (PLACE, "find out -name '*.c' -exec sed -i 's/a/b/' {} +", "deny"),
    (PLACE, "find out -name '*.o'", "allow"),
    (PLACE, "find out -name '*.c' -exec grep -l main {} +", "allow"),
    (PLACE, "find out -name '*.o' | xargs cat", "allow"),
    (PLACE, "grep -r TODO out/", "allow"),
    (PLACE, "cat out/a.c", "allow"),
    (PLACE, "echo out/", "allow"),
    (PLACE, "cp out/a.c /tmp/", "allow"),
    (PLACE, "find . -name '*.pyc' -delete", "allow"),
    (PLACE, "black src/", "allow"),
    (NEW_THERE, "mkdir -p gen/client", "deny"),
    (NEW_THERE, "mkdir gen", "deny"),
    (NEW_THERE, "curl -o gen/schema.json https://example.com/schema.json", "deny"),
    (NEW_THERE, "mkdir -p src/client", "allow"),
    (NEW_THERE, "cat gen/schema.json", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "expected"), PATH_CASES, ids=[f"{c[1]}->{c[2]}" for c in PATH_CASES])
def test_path_forms(policy: str, command: str, expected: str) -> None:
    assert _verdict(policy, command) == expected


#: a place not to read: every reader, through find and xargs too; listing and naming it pass
UNREAD = "- Do not read files in `legacy/`.\n"

READ_CASES = [
    (UNREAD, "cat legacy/a.py", "deny"),
    (UNREAD, "sed -n 1,20p legacy/a.py", "deny"),
    (UNREAD, "grep -rn foo legacy", "deny"),
    (UNREAD, "find legacy -name '*.py' -exec cat {} +", "deny"),
    (UNREAD, "find legacy -name '*.py' | xargs grep -l foo", "deny"),
    (UNREAD, "git show HEAD:legacy/a.py", "deny"),
    (UNREAD, "git diff -- legacy/", "deny"),
    (UNREAD, "cd legacy && cat a.py", "deny"),
    (UNREAD, "python -c \"print(open('legacy/a.py').read())\"", "deny"),
    (UNREAD, "find legacy -name '*.py'", "allow"),
    (UNREAD, "echo legacy/a.py", "allow"),
    (UNREAD, "git diff -- src/", "allow"),
    (UNREAD, "find src -name '*.py' | xargs grep -l foo", "allow"),
]


@pytest.mark.parametrize(("policy", "command", "expected"), READ_CASES, ids=[f"{c[1]}->{c[2]}" for c in READ_CASES])
def test_read_forms(policy: str, command: str, expected: str) -> None:
    assert _verdict(policy, command) == expected


def test_file_tools_meet_the_same_checks() -> None:
    checks = compile_sources(f"# Rules\n\n{PLACE}")["checks"]
    for name, given in (("Write", {"content": "x"}), ("Edit", {"old_string": "a", "new_string": "b"})):
        assert decide(tool(name, file_path="out/a.c", **given), checks=checks).verdict == "deny"
    assert decide(tool("Read", file_path="out/a.c"), checks=checks).verdict == "allow"
    checks = compile_sources(f"# Rules\n\n{UNREAD}")["checks"]
    for name, given in (("Read", {"file_path": "legacy/a.py"}), ("Grep", {"pattern": "x", "path": "legacy"}),
                        ("Glob", {"pattern": "legacy/**/*.py"})):
        assert decide(tool(name, **given), checks=checks).verdict == "deny", name
    assert decide(tool("Grep", pattern="x", path="src"), checks=checks).verdict == "allow"
