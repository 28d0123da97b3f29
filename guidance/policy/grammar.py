"""The rule grammar's fixed parts: tags on a rule, what a code span is (a command pattern or a
path glob), and the exact machine rules of ```guidance blocks.

Prose is read by guidance.policy.frames (clauses into frames) and guidance.policy.resolve
(frames into checks), with the language kept as data in guidance.policy.lexicon.
docs/policy-grammar.md is the user-facing description; CLAUDE.md.example shows every form.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from cf_guidance.paths import SYSTEM_DIRS
from cf_guidance.policy.lexicon import nouns as _nouns
from cf_guidance.policy.lexicon import programs as _programs
from cf_guidance.policy.markdown import CODE_CLOSE, CODE_OPEN

VERDICTS = ("deny", "warn", "ask")
RISKS = ("critical", "high", "medium", "low")
DOMAINS = ("security", "testing", "performance", "architecture", "debugging", "deployment", "general")
TOOL_TAGS = {"bash": "bash", "edit": "edit", "write": "edit", "read": "read", "task": "task",
             "mcp": "mcp", "web": "web", "all": "all"}
LEVELS = ("standard", "strict", "paranoid")

# Single-word command spans are only trusted with "use"/"avoid" when the word is a program
# people actually ban; "Never use `any`" is about TypeScript, not a program called any.
KNOWN_PROGRAMS = _programs.KNOWN_PROGRAMS

_C = f"{CODE_OPEN}(\\d+){CODE_CLOSE}"
_CODE_INDEX = re.compile(_C)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\s+[-\u2013\u2014]+\s+|\s*\u2014\s*")
_PLACEHOLDER = re.compile(r"<[^<>\s]+>|\{[^{}\s]+\}")
#: placeholders that stand for a file: the pattern word only matches arguments that look like one
_FILE_PLACEHOLDERS = frozenset(("<file>", "<path>", "<files>", "<filename>", "<file-path>", "<filepath>", "<script>",
                                "<test-file>", "<test_file>", "<testfile>", "<test>", "<spec>", "<file.ts>", "<file.js>",
                                "{file}", "{path}"))
#: words that stand for a value the reader fills in (`pnpm add package-name`)
_NAMED_PLACEHOLDERS = frozenset(("package-name", "package_name", "pkg-name", "branch-name", "branch_name", "file-name",
                                 "your-branch", "feature-name", "module-name", "script-name"))
#: version numbers written with letters for digits ("v0.3.x", "X.Y.Z")
_VERSION = re.compile(r"^(v?)((?:\d+|[xXyYzZN*])(?:\.(?:\d+|[xXyYzZN*])){1,3})$")
_PROGRAM = re.compile(r"[a-z0-9_./~][a-z0-9_.+~/-]*")
_LONG_FLAG = re.compile(r"--[a-z][a-z0-9-]{2,}(?:=\S+)?")
_SHELL_OPERATORS = ("|", ";", "&&", "$(", "`", ">", "<", "\n", "&")

_MODALS = re.compile(
    r"\b(?:never|always|must|should|shall|do\s+not|don't|dont|avoid|ensure|make\s+sure|required?"
    r"|forbidden|prohibited|mandatory|need\s+to|needs\s+to|have\s+to|has\s+to|cannot|can't|prefer)\b"
)
IMPERATIVE_VERBS = frozenset(
    """use run keep add write follow prefer put place call create make test check verify validate
    update remove delete avoid ensure document commit push install build read edit respect
    include mock apply implement enforce maintain ask confirm wait stop fix leave let limit return
    handle treat wrap name prefix log store consider reuse split favor favour skip do never always
    be think plan review look search explain tell report mark set pin bump cover raise throw catch
    import export declare define annotate format lint sort group clean refactor simplify extract
    move rename prioritize prioritise start begin finish open close upgrade downgrade deploy
    release publish merge rebase squash tag sign encrypt hash sanitize escape quote configure
    require disable enable stick try focus default only no get obtain request disclose""".split()
)

_ID_BRACKET = re.compile(r"^\s*\[(?P<id>[A-Za-z][A-Za-z0-9_.-]{1,63})\]\s*")
_ID_COLON = re.compile(r"^\s*(?P<id>[A-Z]+-?\d{3,4}):\s*")
_RISK_TAG = re.compile(r"\((" + "|".join(RISKS) + r")(?:[- ]risk)?\)", re.IGNORECASE)
_PRIORITY_TAG = re.compile(r"\bpriority\s*:\s*(\d{1,4})\b", re.IGNORECASE)
_INTENT_TAG = re.compile(
    r"(?<![\w#])#(bug-fix|feature|refactor|security|performance|testing|docs|deployment|architecture|debug|general)(?![\w-])",
    re.IGNORECASE,
)
_DOMAIN_TAG = re.compile(r"(?<![\w@])@(" + "|".join(DOMAINS) + r")(?![\w-])", re.IGNORECASE)
_TOOL_TAG = re.compile(r"\[(" + "|".join(TOOL_TAGS) + r")\]", re.IGNORECASE)


@dataclass
class Tags:
    """What the tags on one rule say; empty lists mean "not given, infer"."""

    rule_id: str = ""
    risk: str = ""
    critical: bool = False
    priority: int | None = None
    intents: list[str] = field(default_factory=list)
    domains: list[str] = field(default_factory=list)
    tools: list[str] = field(default_factory=list)


def _valid_bracket_id(candidate: str) -> bool:
    # "[R001]" and "[local-example-rule]" are ids; "[bash]" is a tool tag; "[WIP]"/"[x]" are words.
    return candidate.lower() not in TOOL_TAGS and any(c.isdigit() or c == "-" for c in candidate)


def extract_tags(masked: str) -> tuple[str, Tags]:
    """Strip the id and tags from a rule's masked text; return (clean text, tags)."""
    tags = Tags()
    text = masked
    match = _ID_BRACKET.match(text)
    if match and _valid_bracket_id(match.group("id")):
        tags.rule_id = match.group("id")
        text = text[match.end():]
    else:
        match = _ID_COLON.match(text)
        if match:
            tags.rule_id = match.group("id")
            text = text[match.end():]

    def risk(m: re.Match[str]) -> str:
        level = m.group(1).lower()
        tags.risk = tags.risk or level
        tags.critical = tags.critical or level == "critical"
        return " "

    def priority(m: re.Match[str]) -> str:
        if tags.priority is None:
            tags.priority = int(m.group(1))
        return " "

    def collect(target: list[str], transform: dict[str, str] | None = None) -> Any:
        def strip(m: re.Match[str]) -> str:
            value = m.group(1).lower()
            value = transform.get(value, value) if transform else value
            if value not in target:
                target.append(value)
            return " "

        return strip

    text = _RISK_TAG.sub(risk, text)
    text = _PRIORITY_TAG.sub(priority, text)
    text = _INTENT_TAG.sub(collect(tags.intents), text)
    text = _DOMAIN_TAG.sub(collect(tags.domains), text)
    text = _TOOL_TAG.sub(collect(tags.tools, TOOL_TAGS), text)
    text = " ".join(text.replace("()", " ").split())
    return text, tags


def blank_tags(masked: str) -> str:
    """`masked` with its id and tags replaced by spaces (same length, so offsets and lines hold)."""
    def blank(m: re.Match[str]) -> str:
        return " " * len(m.group(0))

    text = masked
    match = _ID_BRACKET.match(text)
    if match and _valid_bracket_id(match.group("id")):
        text = blank(match) + text[match.end():]
    else:
        match = _ID_COLON.match(text)
        if match:
            text = blank(match) + text[match.end():]
    for tag, mark in ((_RISK_TAG, "("), (_PRIORITY_TAG, ":"), (_INTENT_TAG, "#"), (_DOMAIN_TAG, "@"), (_TOOL_TAG, "[")):
        if mark in text:  # most blocks carry no tag: skip the search
            text = tag.sub(blank, text)
    return text


def is_imperative(masked: str) -> bool:
    """True when a bullet reads as an instruction (a modal word, or a sentence opening with a verb)."""
    prose = _CODE_INDEX.sub(" ", masked).lower().replace("\u2019", "'")
    if _MODALS.search(prose):
        return True
    for sentence in _sentences(masked):
        first = _first_word(sentence)
        if first in IMPERATIVE_VERBS:
            return True
    return False


def _sentences(masked: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(masked) if s.strip()]


def _first_word(sentence: str) -> str:
    word: list[str] = []
    for ch in sentence.lower():
        if ch.isalpha() or (word and ch == "'"):
            word.append(ch)
        elif word or ch == CODE_OPEN:
            break
    return "".join(word)


def _lstrip_noise(sentence: str) -> str:
    # Emoji, check marks, bullets and quotes before the first word ("✅ ALWAYS run ...").
    i = 0
    while i < len(sentence) and not (sentence[i].isalnum() or sentence[i] == CODE_OPEN):
        i += 1
    return sentence[i:]


def placeholder_words(words: list[str], *, filled: bool = False) -> list[str]:
    """Placeholders as pattern words: `<file>` matches an argument that looks like a file
    (`*.*`), `<name>` exactly one argument (`?*`), a trailing one any further arguments (`*`);
    a version written with letters (`v0.3.x`) matches any version (`v0.3.*`).

    `filled`: a trailing placeholder stands for at least one argument, as in the lexicon's own
    commands (`npm install <pkg>` adds a package; a bare `npm install` installs the lockfile, and
    `git tag <name>` creates a tag where a bare `git tag` lists them). A document's command is
    read leniently: "run `pytest <file>`" is satisfied by `pytest`."""
    out: list[str] = []
    for index, word in enumerate(words):
        last = index == len(words) - 1 and not filled
        if index and word.lower() in _NAMED_PLACEHOLDERS:
            out.append("*" if last else "?*")  # `npm install package-name`: a name the reader fills in
        elif word.lower() in _FILE_PLACEHOLDERS:
            out.append("*.*")
        elif _PLACEHOLDER.fullmatch(word):
            out.append("*" if last else "?*")
        elif _PLACEHOLDER.search(word):
            out.append(_PLACEHOLDER.sub("*", word))
        elif word in ("...", "\u2026"):
            out.append("*")
        else:
            version = _VERSION.match(word)
            if version and any(c.isalpha() for c in version.group(2)):
                parts = version.group(2).split(".")
                out.append(version.group(1) + ".".join("*" if not p.isdigit() else p for p in parts))
            else:
                out.append(word)
    return out


def word_glob(pattern: str, word: str) -> bool:
    """One pattern word against one command word, as the gates compare them (for compile-time use)."""
    if pattern == word:
        return True
    if "*" in pattern or "?" in pattern:
        from cf_guidance._glob import _match_segment

        return _match_segment(pattern, word)
    return False


def command_pattern(code: str, *, lenient: bool) -> list[str] | None:
    """The command pattern a backticked span stands for, or None if it is not a command.

    `lenient` is for verbs that only take commands (run, execute); with "use"/"avoid" a
    single unknown word is more likely a function or keyword than a program.
    """
    text = code.strip()
    bare = _PLACEHOLDER.sub("x", text)
    if not text or len(text) > 300 or any(op in bare for op in _SHELL_OPERATORS):
        return None
    if any(c in text for c in "'\"\\"):
        try:
            words = shlex.split(text)
        except ValueError:
            words = text.split()
    else:
        words = text.split()  # no quoting to undo: the same words, without shlex's cost
    if not words:
        return None
    words = placeholder_words(words)
    first = words[0]
    if first.startswith("--"):
        # "Never use `--no-verify`": a long flag on any program (short flags are too ambiguous).
        if all(_LONG_FLAG.fullmatch(w) for w in words):
            return ["*", *words]
        return None
    if not _PROGRAM.fullmatch(first) or first.endswith("/") or "=" in first:
        return None
    program = first.rstrip("/").rsplit("/", 1)[-1]
    if not program or program in (".", "..") or program.isdigit():
        return None
    if not lenient and program not in KNOWN_PROGRAMS and "/" not in first and not program.endswith((".sh", ".py")):
        return None
    if len(words) > 1 and all(w in ("*", "?*") for w in words[1:]):
        return None  # "`npm <command>`" would ban every use of the program: too broad to enforce
    return [program, *words[1:]]


def path_glob(code: str, *, directory: bool, prose: bool = False) -> str | None:
    """The path glob a backticked span stands for, or None if it is not a path. In prose a path
    from `/` may mean the repository's root (`_root_relative`); a ```guidance line means what it says."""
    text = _PLACEHOLDER.sub("*", code.strip())  # `skills/<name>/SKILL.md` -> skills/*/SKILL.md
    if not text or len(text) > 300 or any(c.isspace() for c in text):
        return None
    if any(c in text for c in "$()=;|&<>`'\":") or text.startswith("-"):
        return None  # `minify:false`, `http://x`, `a.ts:42`: a setting, a URL, a place in a file
    while text.startswith("./"):
        text = text[2:]
    if not text or text in (".", "..") or not any(c.isalnum() for c in text):
        return None  # `/`, `*`, `{0}`: no path a rule could protect
    if prose and _root_relative(text, place=directory):
        text = text[1:]
    if prose and text.startswith(".") and text[1:].lower() in _nouns.FILE_EXTENSIONS:
        return "*" + text  # `.pem` in prose is a kind of file, any file ending so
    if text.endswith("/"):
        return text + "**"
    if directory and not any(c in text for c in "*?[") and "." not in text.rsplit("/", 1)[-1]:
        return text + "/**"
    return text


#: where containers and CI mount a checkout: a path there is the machine's, as written
_MOUNT_ROOTS = frozenset(("/tmp", "/workspace", "/workspaces", "/app", "/code", "/github", "/builds", "/data"))


def _root_relative(text: str, *, place: bool = False) -> bool:
    """`/src/generated/`, `/crm/css/app.css` in a CLAUDE.md: the repository's root, as in a
    .gitignore, not the machine's (`/etc/hosts`, `/tmp/x`, `/Users/me/x` stay absolute). Only a
    path that names a directory or a file is read so (`/api/v1` may be a route), or one the
    sentence places files in (`place`: "generated code under /api/gen", "the files in /proto")."""
    if not text.startswith("/") or text.startswith("//"):
        return False
    top = "/" + text[1:].split("/", 1)[0]
    if top in SYSTEM_DIRS or top in _MOUNT_ROOTS:
        return False
    last = text.rstrip("/").rsplit("/", 1)[-1]
    return place or text.endswith("/") or any(c in text for c in "*?[") or ("." in last and last.rsplit(".", 1)[1].isalnum())


def scoped_glob(pattern: str, scope: str) -> str:
    """A path glob written for `scope` (in `<scope>/CLAUDE.md`, or after "In `<scope>`,"), as a
    project-relative glob below `scope`:
    `generated/` -> `src/gen/generated/`, `*.pb.go` -> `src/gen/**/*.pb.go`; a glob already
    naming the scope (`src/gen/**`), an absolute or `~/` glob, or one leaving the project is kept."""
    if pattern.startswith(("/", "~/")):
        return pattern
    body = pattern
    while body.startswith("./"):
        body = body[2:]
    if body == scope or body.startswith(scope + "/"):
        return body
    if "/" not in body.rstrip("/"):
        return f"{scope}/**/{body}"  # a name glob matches at any depth below the directory
    joined = posixpath.normpath(f"{scope}/{body}") + ("/" if body.endswith("/") else "")
    return pattern if joined.startswith("../") or joined == ".." else joined


# --- ```guidance blocks ------------------------------------------------------------------------


class GrammarError(ValueError):
    """A ```guidance line is malformed; the message says what is expected."""


@dataclass
class MachineLine:
    """One parsed ```guidance line: either checks (a rule) or a setting."""

    rule_id: str = ""
    reason: str = ""
    checks: list[dict[str, Any]] = field(default_factory=list)
    #: ("level", "strict") | ("max_diff_lines", 400) | ("tools_allow", [...]) | ("allow_commands", [...])
    #: | ("protect_write", [...]) | ("protect_read", [...])
    setting: tuple[str, Any] | None = None
    text: str = ""


_LINE_ID = re.compile(r"^\[(?P<id>[A-Za-z][A-Za-z0-9_.-]{0,63})\]\s*")


def _strip_comment(line: str) -> str:
    # "#" starts a comment at the line start or after whitespace, outside quotes.
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def _split_reason(line: str) -> tuple[str, str]:
    # The reason follows the last " -- " when it reads as prose (several words, starting with a
    # letter); "git checkout -- ." keeps its "--". Quote a literal "--" ('--') to be explicit.
    index = line.rfind(" -- ")
    while index != -1:
        tail = line[index + 4:].strip()
        if tail and tail[0].isalpha() and " " in tail:
            return line[:index].rstrip(), tail
        index = line.rfind(" -- ", 0, index)
    return line, ""


def _words(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise GrammarError(f"cannot split words ({exc}); check the quotes") from None


def parse_guidance_line(line: str) -> MachineLine | None:
    """Parse one ```guidance line; None for blank/comment lines; GrammarError when malformed."""
    body = _strip_comment(line).strip()
    if not body:
        return None
    out = MachineLine()
    match = _LINE_ID.match(body)
    if match:
        out.rule_id = match.group("id")
        body = body[match.end():]
    body, out.reason = _split_reason(body)
    out.text = " ".join(body.split())
    words = _words(body)
    if not words:
        raise GrammarError("an id alone is not a rule; expected e.g. 'deny command git push --force'")
    verb = words[0].lower()
    rest = words[1:]
    if verb in VERDICTS:
        if len(rest) < 2:
            raise GrammarError(f"'{verb}' needs a kind and a pattern, e.g. '{verb} command rm -rf /'")
        kind = rest[0].lower()
        args = rest[1:]
        if kind == "command":
            out.checks.append({"kind": "command", "verdict": verb, "pattern": _literal_command(args)})
        elif kind in ("write", "read"):
            for arg in args:
                glob = path_glob(arg, directory=False)
                if glob is None:
                    raise GrammarError(f"'{arg}' is not a path glob")
                out.checks.append({"kind": kind, "verdict": verb, "pattern": glob})
        elif kind == "tool":
            for arg in args:
                out.checks.append({"kind": "tool", "verdict": verb, "pattern": arg})
        else:
            raise GrammarError(f"unknown kind '{rest[0]}'; expected command, write, read or tool")
        return out
    if verb == "require":
        if "before" not in rest:
            raise GrammarError("expected 'require <command> before <command>'")
        split = rest.index("before")
        before, then = rest[:split], rest[split + 1:]
        if not before or not then:
            raise GrammarError("expected 'require <command> before <command>'")
        out.checks.append({"kind": "sequence", "verdict": "deny",
                           "before": _literal_command(before), "then": _literal_command(then)})
        return out
    if verb == "allow":
        if len(rest) < 2 or rest[0].lower() not in ("tool", "command"):
            raise GrammarError("expected 'allow tool <names...>' or 'allow command <words...>'")
        if rest[0].lower() == "tool":
            out.setting = ("tools_allow", rest[1:])
        else:
            out.setting = ("allow_commands", [_literal_command(rest[1:])])
        return out
    if verb == "protect":
        if len(rest) < 2 or rest[0].lower() not in ("write", "read"):
            raise GrammarError("expected 'protect write <globs...>' or 'protect read <globs...>'")
        globs = []
        for arg in rest[1:]:
            glob = path_glob(arg, directory=False)
            if glob is None:
                raise GrammarError(f"'{arg}' is not a path glob")
            globs.append(glob)
        out.setting = ("protect_" + rest[0].lower(), globs)
        return out
    if verb == "level":
        if len(rest) != 1 or rest[0].lower() not in LEVELS:
            raise GrammarError("expected 'level standard', 'level strict' or 'level paranoid'")
        out.setting = ("level", rest[0].lower())
        return out
    if verb == "max-diff-lines":
        if len(rest) != 1 or not rest[0].isdigit() or not 0 < int(rest[0]) <= 1_000_000:
            raise GrammarError("expected 'max-diff-lines N' with N between 1 and 1000000")
        out.setting = ("max_diff_lines", int(rest[0]))
        return out
    raise GrammarError(
        f"unknown verb '{words[0]}'; expected deny, warn, ask, require, allow, protect, level or max-diff-lines"
    )


def _literal_command(words: list[str]) -> list[str]:
    # Machine rules are exact: the program word is reduced to its basename (matching is on
    # `Command.program`), every other word is kept as written.
    if not words:
        raise GrammarError("a command pattern needs at least a program word")
    program = words[0].rstrip("/").rsplit("/", 1)[-1] or words[0]
    return [program, *words[1:]]
