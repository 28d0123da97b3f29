"""The shell analysis stays on the hot path: standard library only, no costly modules."""

from __future__ import annotations

import os
import subprocess
import sys

from tests.conftest import package_path

BANNED = {"typing", "re", "json", "pathlib", "dataclasses", "enum", "subprocess", "hashlib", "inspect",
          "fnmatch", "glob", "shlex", "pydantic", "click", "markdown_it", "cryptography", "yaml", "site"}
COMMANDS = [
    "git status --short && npm test",
    "sudo env FOO=1 bash -c 'rm -rf {a,b}' | xargs -0 echo",
    "python3 -c 'import os; os.system(\"rm a\")'",
    "node -e 'require(\"fs\").rmSync(\"x\", {recursive: true})'",
    "perl -e 'system \"ls\"'; ruby -e '`ls`'; php -r 'exec(\"ls\");'; awk 'BEGIN{system(\"ls\")}'",
    "echo cm0gYQ== | base64 -d | sh; printf 'ls\\n' | bash",
    "cat <<EOF | sh\n$(rm a)\nEOF",
    "echo 'unterminated",
]


def test_analysing_every_kind_of_command_imports_no_banned_module() -> None:
    code = "from cf_guidance.shell import analyze\n" + "".join(f"analyze({c!r})\n" for c in COMMANDS)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = package_path()
    result = subprocess.run([sys.executable, "-S", "-X", "importtime", "-c", code], capture_output=True, text=True, env=env, timeout=60, check=True)
    modules = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:") and "|" in line}
    assert "cf_guidance.shell.interpreters" in modules  # the lazy paths were exercised
    assert not modules & BANNED, sorted(modules & BANNED)
