"""The rule grammar: tags on a bullet, prose sentences that compile to checks, ```guidance lines.

Prose is read conservatively. A check is derived only from an imperative sentence whose
backticked span is the direct object of a known verb ("Never run `X`", "Avoid `X`", "Ask before
running `X`", "Never edit `glob`", "Never read `glob`", "Always run `X` before `Y`"). Anything
else (a code span mentioned in passing, a descriptive sentence, a code block) yields nothing.
docs/policy-grammar.md is the user-facing description; CLAUDE.md.example shows every form.

Checks are returned as plain dicts without ids or sources; the compiler adds those.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from typing import Any

from cf_guidance.policy.markdown import CODE_CLOSE, CODE_OPEN

VERDICTS = ("deny", "warn", "ask")
RISKS = ("critical", "high", "medium", "low")
DOMAINS = ("security", "testing", "performance", "architecture", "debugging", "deployment", "general")
TOOL_TAGS = {"bash": "bash", "edit": "edit", "write": "edit", "read": "read", "task": "task",
             "mcp": "mcp", "web": "web", "all": "all"}
LEVELS = ("standard", "strict", "paranoid")

# Single-word command spans are only trusted with "use"/"avoid" when the word is a program
# people actually ban; "Never use `any`" is about TypeScript, not a program called any.
KNOWN_PROGRAMS = frozenset(
    """git npm npx yarn pnpm bun deno node pip pip3 pipx uv poetry conda cargo rustup go make
    cmake docker podman kubectl helm terraform tofu pulumi aws gcloud az gsutil rm rmdir mv cp
    sudo su curl wget ssh scp rsync dd mkfs fdisk parted chmod chown kill pkill killall shutdown
    reboot halt psql mysql mongo mongosh redis-cli sqlite3 find xargs python python3
    pytest jest vitest tsc eslint prettier black ruff mypy gh brew apt apt-get yum dnf pacman
    systemctl crontab truncate shred wipefs mkswap mount umount iptables nc netcat ncat
    telnet ftp sftp heroku vercel netlify firebase flyctl fly wrangler supabase prisma alembic
    rails rake gem composer php artisan dotnet mvn gradle gradlew sbt elixir
    flutter dart xcodebuild fastlane ansible ansible-playbook vagrant packer nix nix-env
    chezmoi tmux bazel nx turbo lerna semantic-release
    twine hatch flit tox nox pre-commit husky lint-staged sed awk perl ruby""".split()
)

_C = f"{CODE_OPEN}(\\d+){CODE_CLOSE}"
_C_NOGROUP = f"{CODE_OPEN}\\d+{CODE_CLOSE}"
_LIST = rf"{_C_NOGROUP}(?:\s*(?:,\s*(?:or\s+|and\s+|nor\s+)?|or\s+|and\s+|nor\s+|/\s*){_C_NOGROUP})*"
_NEG = r"(?:never|do\s+not|don't|dont|must\s+not|mustn't|should\s+not|shouldn't|shall\s+not|cannot|can't|may\s+not|are\s+not\s+allowed\s+to|is\s+not\s+allowed\s+to)"
_ADV = r"(?:(?:ever|directly|manually|locally|yourself|accidentally|automatically|blindly|just)\s+)?"
_RUN = r"(?:run|use|execute|invoke|call|type|issue)"
_RUN_ING = r"(?:running|using|executing|calling|invoking)"
# "the command `X`", "commands like `X`", "destructive commands such as `X`": the examples are the ban.
_THE = (r"(?:(?:the|a|an|any)\s+)?(?:(?:[a-z-]+\s+){0,2}?(?:commands?|tools?|things?)\s+(?:like|such\s+as|including)\s+"
        r"|commands?\s+)?")
_READ_VERBS = ("read", "open", "cat", "print", "display", "view", "dump", "show")
_WRITE_VERBS = ("edit", "modify", "write", "write to", "create", "delete", "remove", "touch", "change",
                "overwrite", "alter", "rename", "move", "truncate")
_FILE_VERB = r"(?:write\s+to|" + "|".join(sorted(set(_READ_VERBS + _WRITE_VERBS) - {"write to"}, key=len, reverse=True)) + ")"
_FILE_VERBS = rf"{_FILE_VERB}(?:\s*(?:,|or|and|/|,\s*or|,\s*and)\s*{_FILE_VERB})*"

_DENY_CMD = re.compile(rf"\b{_NEG}\s+{_ADV}(?P<verb>{_RUN})\s+{_ADV}{_THE}(?P<codes>{_LIST})")
_BARE_NEG = re.compile(rf"\b(?:never|do\s+not|don't|dont|must\s+not)\s+{_ADV}(?P<codes>{_LIST})")
_WARN_CMD = re.compile(
    rf"\b(?:avoid|prefer\s+not\s+to|try\s+not\s+to|try\s+to\s+avoid)\s+{_ADV}"
    rf"(?:(?P<verb>{_RUN_ING}|{_RUN})\s+)?{_ADV}{_THE}(?P<codes>{_LIST})"
)
_ASK_CMD = re.compile(
    r"\b(?:ask|check\s+with\s+(?:the\s+user|me|a\s+human)|confirm(?:\s+with\s+(?:the\s+user|me))?"
    r"|get\s+(?:[a-z-]+\s+){0,2}?(?:approval|confirmation|permission|sign-off)"
    r"|require\s+(?:explicit\s+)?(?:approval|confirmation|permission)"
    r"|request\s+(?:explicit\s+)?(?:approval|permission|confirmation))\s+"
    r"(?:(?:the\s+user|me|first|for\s+(?:approval|permission|confirmation))\s+)*before\s+"
    rf"(?:(?P<verb>{_RUN_ING}|you\s+{_RUN})\s+)?{_THE}(?P<codes>{_LIST})"
)
_FILE = re.compile(
    rf"\b{_NEG}\s+{_ADV}(?P<verbs>{_FILE_VERBS})\s+"
    # "the plugin mirror at `x`", "generated files under `x`": up to two words before a file noun.
    r"(?:(?:any|the|existing|a|an)\s+)?(?:(?:[a-z-]+\s+){0,2}?"
    r"(?:files?|anything|contents?|directory|directories|folders?|paths?|mirror|copy|copies|tree|code)\s+)?"
    r"(?:(?P<prep>in|under|inside|within|of|from|at)\s+)?(?:the\s+)?"
    rf"(?P<codes>{_LIST})"
)
_SEQ_START = (
    r"(?:^|\balways\s+|\bmust\s+|\bmake\s+sure\s+(?:to\s+|you\s+)|\bensure\s+(?:that\s+)?(?:you\s+)?"
    r"|\bremember\s+to\s+|\bplease\s+|\bbe\s+sure\s+to\s+|\bshould\s+)"
)
_THEN = rf"(?P<then>{_C}|committing|commits?|pushing|push(?:es)?)"
_EVERY = r"(?:(?:every|each|any|all|a|an|you|the|your)\s+)*"
_SEQ_AFTER = re.compile(
    rf"{_SEQ_START}(?:run|execute)\s+(?P<codes>{_LIST})\s+(?:(?:successfully|first|locally)\s+)?"
    rf"before\s+{_EVERY}{_THEN}"
)
_SEQ_BEFORE = re.compile(
    rf"(?:^|\b)before\s+{_EVERY}{_THEN}\s*,?\s*(?:(?:always|first|please)\s+|you\s+must\s+|make\s+sure\s+(?:to\s+|you\s+))?"
    rf"(?:run|execute)\s+(?P<codes>{_LIST})"
)
# "Don't use `find` in tests": the span names something used inside code, not a command to run.
_IN_CODE = re.compile(
    r"\s*(?:in|inside|within|from)\s+(?:the\s+|your\s+|our\s+|any\s+)?(?:[\w.+#-]+\s+)?"
    r"(?:tests?|specs?|code|codebase|source|production|components?|modules?|files?|scripts?|functions?|classes)\b"
)
# "Don't run `make test` before committing": a ban limited to a moment is not a ban of the command.
_WHEN = re.compile(r"\s*,?\s*(?:before|after|while|during|until|when|whenever|if|once)\b")
_NEGATION = re.compile(rf"\b{_NEG}\b")
_EXCEPTION = re.compile(r"\b(?:unless|without|except|only\s+(?:when|if|after|with))\b")
# "Never run `git push --force` on main": the ban is narrower than any command pattern can
# say, so the check asks a human instead of denying every use of the command.
_QUALIFIER = re.compile(r"\s*,?\s*(?:on|in|against|with|for|from|to|inside|into|at|over|via|under)\b")
_CODE_INDEX = re.compile(_C)
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\s+[-\u2013\u2014]+\s+|\s*\u2014\s*")
_PLACEHOLDER = re.compile(r"<[^<>\s]+>|\{[^{}\s]+\}")
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
    require disable enable stick try focus default only no get obtain request""".split()
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


def _codes_in(span: str, codes: tuple[str, ...]) -> list[str]:
    return [codes[int(i)] for i in _CODE_INDEX.findall(span) if int(i) < len(codes)]


def command_pattern(code: str, *, lenient: bool) -> list[str] | None:
    """The command pattern a backticked span stands for, or None if it is not a command.

    `lenient` is for verbs that only take commands (run, execute); with "use"/"avoid" a
    single unknown word is more likely a function or keyword than a program.
    """
    text = _PLACEHOLDER.sub("*", code.strip())
    if not text or len(text) > 300 or any(op in text for op in _SHELL_OPERATORS):
        return None
    try:
        words = shlex.split(text)
    except ValueError:
        words = text.split()
    if not words:
        return None
    if words[-1] in ("...", "\u2026"):
        words[-1] = "*"
    first = words[0]
    if first.startswith("--"):
        # "Never use `--no-verify`": a long flag on any program (short flags are too ambiguous).
        if all(_LONG_FLAG.fullmatch(w) for w in words):
            return ["*", *words]
        return None
    if not _PROGRAM.fullmatch(first) or first.endswith("/") or "=" in first:
        return None
    program = first.rstrip("/").rsplit("/", 1)[-1]
    if not program or program in (".", ".."):
        return None
    if not lenient and program not in KNOWN_PROGRAMS and "/" not in first and not program.endswith((".sh", ".py")):
        return None
    if len(words) > 1 and all(w == "*" for w in words[1:]):
        return None  # "`bun <file>`" would ban every use of the program: too broad to enforce
    return [program, *words[1:]]


def path_glob(code: str, *, directory: bool) -> str | None:
    """The path glob a backticked span stands for, or None if it is not a path."""
    text = _PLACEHOLDER.sub("*", code.strip())  # `skills/<name>/SKILL.md` -> skills/*/SKILL.md
    if not text or len(text) > 300 or any(c.isspace() for c in text):
        return None
    if any(c in text for c in "$()=;|&<>`'\"") or text.startswith("-"):
        return None
    while text.startswith("./"):
        text = text[2:]
    if not text or text in (".", ".."):
        return None
    if text.endswith("/"):
        return text + "**"
    if directory and not any(c in text for c in "*?[") and "." not in text.rsplit("/", 1)[-1]:
        return text + "/**"
    return text


def _sequence_then(word: str, codes: tuple[str, ...]) -> list[str] | None:
    if word.startswith("commit"):
        return ["git", "commit"]
    if word.startswith("push"):
        return ["git", "push"]
    found = _codes_in(word, codes)
    return command_pattern(found[0], lenient=True) if found else None


def derive_checks(masked: str, codes: tuple[str, ...], message: str) -> list[dict[str, Any]]:
    """The checks an imperative rule's prose states unambiguously (possibly none)."""
    checks: list[dict[str, Any]] = []
    seen: set[str] = set()

    def add(check: dict[str, Any]) -> None:
        key = repr(sorted(check.items()))
        if key not in seen:
            seen.add(key)
            check["message"] = message
            checks.append(check)

    if CODE_OPEN not in masked:
        return checks  # every form names its command or path in backticks
    for raw in _sentences(masked):
        if CODE_OPEN not in raw:
            continue
        sentence = _lstrip_noise(raw)
        lower = sentence.lower().replace("\u2019", "'")  # "Don’t" as typed by editors
        for sequence in (_SEQ_AFTER, _SEQ_BEFORE):
            for match in sequence.finditer(lower):
                if _NEGATION.search(lower[: match.start()]):
                    continue
                then = _sequence_then(match.group("then"), codes)
                for code in _codes_in(match.group("codes"), codes):
                    before = command_pattern(code, lenient=True)
                    if before and then:
                        add({"kind": "sequence", "verdict": "deny", "before": before, "then": then})
        for match in _ASK_CMD.finditer(lower):
            lenient = match.group("verb") is not None
            for code in _codes_in(match.group("codes"), codes):
                pattern = command_pattern(code, lenient=lenient)
                if pattern:
                    add({"kind": "command", "verdict": "ask", "pattern": pattern})
        for match in _WARN_CMD.finditer(lower):
            verb = match.group("verb") or ""
            lenient = verb.startswith(("run", "exec", "call", "invok"))
            if (not lenient and _IN_CODE.match(lower, match.end())) or _WHEN.match(lower, match.end()):
                continue
            for code in _codes_in(match.group("codes"), codes):
                pattern = command_pattern(code, lenient=lenient)
                if pattern:
                    add({"kind": "command", "verdict": "warn", "pattern": pattern})
        deny_matches = [(m, m.group("verb") != "use") for m in _DENY_CMD.finditer(lower)]
        deny_matches += [(m, False) for m in _BARE_NEG.finditer(lower)]
        for match, lenient in deny_matches:
            if (not lenient and _IN_CODE.match(lower, match.end())) or _WHEN.match(lower, match.end()):
                continue
            # "Never run `X` unless I ask" is a request for confirmation, not a ban.
            narrowed = _EXCEPTION.search(lower[match.end():]) or _QUALIFIER.match(lower, match.end())
            verdict = "ask" if narrowed else "deny"
            for code in _codes_in(match.group("codes"), codes):
                pattern = command_pattern(code, lenient=lenient)
                if pattern:
                    add({"kind": "command", "verdict": verdict, "pattern": pattern})
        for match in _FILE.finditer(lower):
            verbs = set(re.split(r"\s*(?:,\s*or|,\s*and|,|\bor\b|\band\b|/)\s*", match.group("verbs")))
            kinds = []
            if verbs & set(_WRITE_VERBS) or "write to" in match.group("verbs"):
                kinds.append("write")
            if verbs & set(_READ_VERBS):
                kinds.append("read")
            directory = match.group("prep") in ("in", "under", "inside", "within")
            verdict = "ask" if _EXCEPTION.search(lower[match.end():]) else "deny"
            for code in _codes_in(match.group("codes"), codes):
                glob = path_glob(code, directory=directory)
                if not glob:
                    continue
                # `migrations` may be a file or a directory: protect both readings.
                bare = not any(c in glob for c in "*?[") and "." not in glob.rsplit("/", 1)[-1]
                for kind in kinds:
                    add({"kind": kind, "verdict": verdict, "pattern": glob})
                    if bare:
                        add({"kind": kind, "verdict": verdict, "pattern": glob + "/**"})
    return checks


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
