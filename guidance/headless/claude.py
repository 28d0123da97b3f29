"""Run the real Claude Code CLI headless (`claude -p`), isolated from the user's setup.

Used by the end-to-end tests and the headless runner. Each run gets its own HOME and
CLAUDE_CONFIG_DIR, talks only to the given Messages API URL (normally a scripted
`ModelServer` on 127.0.0.1), and sees none of the user's ANTHROPIC_* / CLAUDE_* settings.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cf_guidance.errors import RunnerError

#: The Claude Code release the tests are pinned to (scripts/test.sh installs it).
PINNED_VERSION = "2.1.328"
#: Environment variable naming the claude binary to use (scripts/test.sh sets it).
CLAUDE_BIN_ENV = "CF_GUIDANCE_CLAUDE_BIN"
#: Where scripts/test.sh installs the pinned Claude Code, relative to the repository.
PINNED_BIN = Path(".tools/claude-code/node_modules/.bin/claude")
#: The repository this package lives in (an editable install); the pinned binary is under it.
REPO_ROOT = Path(__file__).resolve().parents[2]
#: Prefixes of the user's variables that would change what the client does or where it talks.
SCRUBBED_PREFIXES = ("ANTHROPIC_", "CLAUDE")
#: Tools the scripted sessions use; allowed up front because nobody answers prompts under -p.
DEFAULT_ALLOWED_TOOLS = ("Bash", "Write", "Edit", "Read", "Glob", "Grep")

OutputFormat = Literal["json", "stream-json"]


def find_claude(repo_root: Path | None = None) -> Path:
    """The claude binary: $CF_GUIDANCE_CLAUDE_BIN, the repo's pinned install, then PATH."""
    configured = os.environ.get(CLAUDE_BIN_ENV)
    if configured:
        path = Path(configured)
        if path.is_file() and os.access(path, os.X_OK):
            return path
        raise RunnerError(f"{CLAUDE_BIN_ENV}={configured} is not an executable file; fix or unset it")
    pinned = (repo_root or REPO_ROOT) / PINNED_BIN
    if pinned.is_file() and os.access(pinned, os.X_OK):
        return pinned
    on_path = shutil.which("claude")
    if on_path:
        return Path(on_path)
    raise RunnerError(
        "claude binary not found; run scripts/test.sh (installs the pinned Claude Code) "
        f"or set {CLAUDE_BIN_ENV}"
    )


def claude_version(binary: Path) -> str:
    """`claude --version`'s version number, e.g. "2.1.328"."""
    try:
        done = subprocess.run(
            [str(binary), "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise RunnerError(f"{binary} --version failed ({exc})") from None
    words = done.stdout.split()
    if done.returncode != 0 or not words:
        raise RunnerError(f"{binary} --version failed: {done.stderr.strip() or 'no output'}")
    return words[0]


def claude_env(
    base_url: str,
    home: Path,
    *,
    base: Mapping[str, str] | None = None,
    extra: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """An environment for one isolated run against the Messages API at `base_url`.

    `home` becomes HOME (created if missing) with CLAUDE_CONFIG_DIR at `home/.claude`.
    The rest comes from `base` (default: this process's environment) minus every
    ANTHROPIC_* and CLAUDE* variable; PATH is kept so hooks find their interpreter.
    `extra` is applied last.
    """
    config_dir = home / ".claude"
    config_dir.mkdir(parents=True, exist_ok=True)
    source = os.environ if base is None else base
    env = {k: v for k, v in source.items() if not k.startswith(SCRUBBED_PREFIXES)}
    env.update(
        HOME=str(home),
        CLAUDE_CONFIG_DIR=str(config_dir),
        ANTHROPIC_BASE_URL=base_url,
        ANTHROPIC_API_KEY="test",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
        DISABLE_AUTOUPDATER="1",
        # Every tool is sent up front, so a scripted call to e.g. WebFetch validates.
        ENABLE_TOOL_SEARCH="false",
        # The model server is on loopback: no proxy of the user's may intercept it.
        NO_PROXY="127.0.0.1,localhost",
        no_proxy="127.0.0.1,localhost",
    )
    if extra:
        env.update(extra)
    return env


@dataclass(frozen=True)
class ClaudeRun:
    """What one `claude -p` run did."""

    argv: tuple[str, ...]
    exit_code: int
    stdout: str
    stderr: str
    #: Each stdout line that parsed as JSON (one result object for json, every message for
    #: stream-json).
    messages: tuple[Any, ...]
    duration_s: float
    timed_out: bool = False

    @property
    def result(self) -> dict[str, Any]:
        """The final `type: result` object; RunnerError (with stderr) when there is none."""
        for message in reversed(self.messages):
            if isinstance(message, dict) and message.get("type") == "result":
                return message
        detail = (self.stderr.strip() or self.stdout.strip() or "no output")[-500:]
        state = "timed out" if self.timed_out else f"exited {self.exit_code}"
        raise RunnerError(f"claude {state} without a result object: {detail}")

    @property
    def permission_denials(self) -> list[dict[str, Any]]:
        denials = self.result.get("permission_denials") or []
        return [d for d in denials if isinstance(d, dict)]

    def denied_tool_use_ids(self) -> set[str]:
        return {str(d.get("tool_use_id")) for d in self.permission_denials}


def run_claude(
    prompt: str,
    cwd: Path,
    env: Mapping[str, str],
    *,
    output_format: OutputFormat = "json",
    max_turns: int | None = 10,
    timeout: float = 120.0,
    allowed_tools: Sequence[str] = DEFAULT_ALLOWED_TOOLS,
    extra_args: Sequence[str] = (),
    binary: Path | None = None,
) -> ClaudeRun:
    """Run `claude -p prompt` in `cwd` with exactly `env` (build it with `claude_env`).

    Project settings (and so the project's hooks) load as in normal use; `allowed_tools`
    are pre-approved because under -p nobody answers a permission prompt. On timeout the
    whole process group is killed and the run comes back with `timed_out=True`.
    """
    argv = [str(binary or find_claude()), "-p", prompt, "--output-format", output_format]
    if output_format == "stream-json":
        argv.append("--verbose")  # -p refuses stream-json without it
    if max_turns is not None:
        argv += ["--max-turns", str(max_turns)]
    if allowed_tools:
        argv += ["--allowedTools", ",".join(allowed_tools)]
    argv += list(extra_args)
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            argv,
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,  # hooks and Bash children die with it on timeout
        )
    except OSError as exc:
        raise RunnerError(f"cannot start {argv[0]} ({exc.strerror})") from None
    timed_out = False
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc)
        stdout, stderr = proc.communicate()
    return ClaudeRun(
        argv=tuple(argv),
        exit_code=proc.returncode,
        stdout=stdout,
        stderr=stderr,
        messages=tuple(_json_lines(stdout)),
        duration_s=time.monotonic() - started,
        timed_out=timed_out,
    )


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def _json_lines(stdout: str) -> list[Any]:
    parsed: list[Any] = []
    for line in stdout.splitlines():
        line = line.strip()
        if not line.startswith(("{", "[")):
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        # `--output-format json --verbose` prints one array of every message.
        parsed.extend(value if isinstance(value, list) else [value])
    return parsed
