"""Frames resolved into checks: objects become command patterns, globs, categories, phrases.

Each `Spec` is one check of the bundle with where it came from, a confidence and the reason
the agent reads. The resolution of an object depends on the frame's action (a code span is a
command after "run", a path after "edit"); objects that cannot be resolved leave the rule
advisory, with the reason in the frame's notes.

Confidence: 1.0 for a backticked command or path that is the direct object of a table verb;
lower for what was inferred (a pronoun's antecedent, a heading's force, a noun's files, a
category of commands). A check whose confidence is under `DENY_CONFIDENCE` never denies: it
asks instead (uncertain extractions are never silent denials), and `cf-guidance compile`
lists it for review.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cf_guidance import shell as _shell_analysis
from cf_guidance._glob import glob_match
from cf_guidance.gates.commands import runs_script
from cf_guidance.gates.commands.message import BODY_COMMANDS, COMMIT_COMMANDS, TITLE_COMMANDS
from cf_guidance.gates.policy_rules import script_of
from cf_guidance.policy import grammar
from cf_guidance.policy.frames import ANY_CHANGE, ASK, AVOID, BAN, ONLY, REQUIRE, Frame, Obj, root_place
from cf_guidance.policy.lexicon import actions as _actions
from cf_guidance.policy.lexicon import categories as _categories
from cf_guidance.policy.lexicon import markers as _markers
from cf_guidance.policy.lexicon import nouns as _nouns
from cf_guidance.policy.lexicon import programs as _programs
from cf_guidance.policy.lexicon import shapes as _shapes
from cf_guidance.policy.shapes import strong_cue, surfaces_of
from cf_guidance.policy.lexicon import things as _things
from cf_guidance.shell.model import Command, program_name

DENY_CONFIDENCE = 0.8
#: categories whose "change"/"update" is running their commands (not editing a file)
_CHANGED_BY_COMMANDS = ("env-change", "update-dependency", "add-dependency", "toolchain")
#: categories of things commands make ("don't create virtual environments": `python -m venv`, ...)
_MADE_BY_COMMANDS = ("create-venv",)

#: the commands of git actions named by a verb
_THEN = {"commit": ["git", "commit"], "push": ["git", "push"], "pr": ["gh", "pr", "create"], "merge": ["git", "merge"]}
#: commands that carry a message an agent writes (commit messages, PR bodies, comments)
CARRIERS: dict[str, tuple[str, ...]] = {
    "commit": ("git commit", "git tag", "git notes add", "git merge", "gt create", "gt modify", "gt commit create",
               "jj describe", "jj commit"),
    "pr": ("gh pr create", "gh pr edit", "gh pr comment", "gh pr review", "gt submit", "glab mr create", "hub pull-request"),
    "comment": ("gh pr comment", "gh issue comment", "gh pr review", "gh issue create", "gh issue edit", "gh release create"),
}
_CREATORS = ("git commit", "gh pr create", "glab mr create", "hub pull-request", "gt create")
#: commands that install a package named after them: "do not install `vitest`" is about any of
#: them (the package's ecosystem is not said; a name of another ecosystem never meets its command)
_INSTALLERS = ("pip install", "conda install", "mamba install", "brew install", "apt install", "apt-get install",
               "npm install", "pnpm add", "yarn add", "bun add", "cargo install", "cargo add", "go install", "go get",
               "gem install", "pipx install", "uv tool install", "uv pip install", "uv add", "poetry add", "pdm add")
#: the formats of a file of secrets as real files name it (`secrets.yaml`, `Secrets.xcconfig`, a
#: manifest's `secret.yaml`, `workers.secret.yml`); its template (`secrets.example.yaml`,
#: `secret.template.yaml`), a sealed secret and a page about secrets (`secrets.md`) are no such file
_SECRET_FORMATS = ("yaml", "yml", "json", "toml", "env", "xcconfig")
#: files that hold secrets, for "never commit secrets"
SECRET_GLOBS = (".env", ".env.local", ".env.*.local", ".env.production", ".env.development", "*.pem", "*.key", "id_rsa",
                "id_ed25519", "credentials.json", "*.p12") + tuple(
    f"{name}.{ext}" for name in ("[Ss]ecrets", "[Ss]ecret", "*.secret") for ext in _SECRET_FORMATS)


@dataclass
class Spec:
    kind: str
    verdict: str
    line: int
    pattern: Any = None
    also: list[list[str]] = field(default_factory=list)
    anchor: bool = True
    values: list[str] = field(default_factory=list)
    exempt: list[list[str]] = field(default_factory=list)
    wrapped: str = ""
    #: command: applies only when the command runs below the project root ("run make from the repository root")
    away: bool = False
    #: command: applies only to the commands that change something by the effect model ("`aws` commands that
    #: create, modify or delete resources"; lexicon markers.STATE_CHANGING)
    changes: bool = False
    #: command: wrappers the document runs the program under (`uv run pytest`): not this check's business
    via: list[str] = field(default_factory=list)
    before: list[str] | None = None
    before_any: list[list[str]] = field(default_factory=list)
    then: list[str] | None = None
    target: str = ""
    #: sequence: `before` must run after the last change of these files (`**`: any) rather than before each `then`
    edits: list[str] = field(default_factory=list)
    #: sequence: the step is a tool use ("read" / "edit") of these files rather than the command `before`
    step: str = ""
    paths: list[str] = field(default_factory=list)
    #: sequence: the gated action is an edit of these files (`**`: any) rather than the command `then`
    then_paths: list[str] = field(default_factory=list)
    requires: list[list[str]] = field(default_factory=list)
    phrases: list[str] = field(default_factory=list)
    #: message: the phrases must be there (a required text), not absent
    absent: bool = False
    #: command: a rewrite of published commits, which the gate holds only after a push of the session
    published: bool = False
    #: command: NAME=value words of which the command must carry one (`HUSKY=0 git commit`; a value `*` is any)
    assigned: list[str] = field(default_factory=list)
    category: str = ""
    #: write, create: the paths the check spares (a confinement's allowed paths, or the files named beside "other")
    only: list[str] = field(default_factory=list)
    #: target (merge): the branches whose merge into the target the check is about; none: any merge
    merged: list[str] = field(default_factory=list)
    #: shape: starts | length | emoji, with the forms one of which begins the subject, or its longest length
    form: str = ""
    starts: list[str] = field(default_factory=list)
    max_length: int = 0
    #: shape: "body" when the texts include PR descriptions, issues and comments (their `--body`)
    part: str = ""
    confidence: float = 1.0
    what: str = ""
    instead: str = ""
    condition: str = ""
    why: list[str] = field(default_factory=list)


@dataclass
class Inventory:
    """The commands a document mentions, with the words around them (how it builds, tests, ...)."""

    #: (command words, task words nearby, section, positive?)
    entries: list[tuple[list[str], frozenset[str], tuple[str, ...], bool]] = field(default_factory=list)
    #: paths the document lists as of a kind of file ("Files are auto-generated by X:" then a list),
    #: by that kind's globs (lexicon.nouns.PathNoun.marks)
    kinds: dict[tuple[str, ...], list[str]] = field(default_factory=dict)
    #: pairs of commands the document names as one ("`just fmt` or `just f`")
    same: list[tuple[list[str], list[str]]] = field(default_factory=list)
    _by_program: dict[str, list[list[str]]] | None = None

    def add(self, words: list[str], context: str, section: tuple[str, ...], positive: bool) -> None:
        self._by_program = None
        if words and len(self.entries) < 2000:
            self.entries.append((words, frozenset(context.lower().replace(":", " ").replace(",", " ").split()), section, positive))

    def for_category(self, category: str, *, named: bool = False) -> list[list[str]]:
        """The document's commands mentioned near the category's words; `named`: only those whose
        own words name it (`pnpm build`, not the `pnpm` or `uv run` listed under a "Build" heading)."""
        names = _category(category)
        if names is None:
            return []
        keys = {phrase for phrase in names.words if " " not in phrase}
        out: list[list[str]] = []
        for words, context, _, positive in self.entries:
            if named and not any(key in word.lower() for word in words for key in keys):
                continue
            if positive and context & keys and words not in out:
                out.append(words)
        return out

    def positives(self, program: str = "") -> list[list[str]]:
        """The commands the document prescribes (of `program`, when given: its basename after any
        NAME=value words)."""
        by_program = self._by_program
        if by_program is None:
            by_program = self._by_program = {}
            for words, _, _, positive in self.entries:
                if positive:
                    head = next((w for w in words if not ("=" in w and w.split("=", 1)[0].isupper())), "")
                    by_program.setdefault(head.rsplit("/", 1)[-1], []).append(words)
                    by_program.setdefault("", []).append(words)
        return by_program.get(program, [])

    def bans(self, words: list[str]) -> bool:
        """The document names `words` as a command it forbids (or steers away from)."""
        return any(not positive and banned == words for banned, _, _, positive in self.entries)

    def spellings(self, step: list[str]) -> list[list[str]]:
        """The other commands the document names as the same as `step` (a command that must run
        first, as `relax` leaves it): each as `relax` leaves it."""
        out: list[list[str]] = []
        for pair in self.same:
            patterns = [grammar.command_pattern(shlex.join(words), lenient=True) for words in pair]
            if None in patterns:
                continue
            relaxed = [relax(pattern) for pattern in patterns if pattern is not None]
            for mine, theirs in (relaxed, relaxed[::-1]):
                if mine == step and theirs != step and theirs not in out:
                    out.append(theirs)
        return out

    def in_section(self, section: tuple[str, ...]) -> list[list[str]]:
        return [words for words, _, sect, positive in self.entries if positive and sect[: len(section)] == section and section]

    def subcommands(self, program: str, words: set[str]) -> list[str]:
        """`program` and its subcommand, for each subcommand of it the document names that is one of `words`."""
        return list(dict.fromkeys(f"{program} {found[1]}" for found, _, _, _ in self.entries
                                  if len(found) >= 2 and found[0] == program and found[1] in words))

    def script(self, name: str) -> list[list[str]]:
        """Commands of the document that run the package script or make target `name`."""
        return [words for words, _, _, _ in self.entries if len(words) >= 2 and words[-1] == name
                and words[0] in ("npm", "yarn", "pnpm", "bun", "make", "just")]


@dataclass
class Place:
    """Where a frame stands: its source, line, section and neighbours, for resolving references."""

    source: str
    line: int
    section: tuple[str, ...] = ()
    antecedents: list[Obj] = field(default_factory=list)
    label: list[Obj] = field(default_factory=list)
    following: list[Obj] = field(default_factory=list)
    header: bool = False
    inventory: Inventory = field(default_factory=Inventory)
    #: what the sentence, or the one after it, says to do instead ("always use `yarn typecheck`")
    instead: list[Obj] = field(default_factory=list)
    #: every code span of the block ("Always commit as Claude. Use: `git -c ... commit`")
    codes: list[Obj] = field(default_factory=list)
    #: the directory a subdirectory's file applies to ("" at the root): what "this directory" is there
    scope: str = ""
    #: the block names the git hooks: "don't bypass" / "never skip it" in it is about them
    hooks: bool = False
    #: the commit types the block lists ("Types: feat, fix, deps"): a convention there allows them too
    types: list[str] = field(default_factory=list)


@lru_cache(maxsize=None)
def _category(name: str) -> _categories.Category | None:
    for category in _categories.CATEGORIES:
        if category.name == name:
            return category
    return None


def _is_category_member(words: list[str], category: str) -> bool:
    return any(_pattern_covers(list(pattern), words) for pattern in category_patterns(category))


def _pattern_covers(pattern: list[str], words: list[str]) -> bool:
    """A cheap compile-time test that a command (as words) matches an anchored pattern."""
    if not pattern or not words:
        return False
    if not grammar.word_glob(pattern[0], words[0].rsplit("/", 1)[-1]):
        return False
    want = [w for w in pattern[1:] if not w.startswith("-") and w != "*"]
    have = [w for w in words[1:] if not w.startswith("-")]
    if len(have) < len(want):
        return False
    if not all(grammar.word_glob(p, h) for p, h in zip(want, have)):
        return False
    flags = [w for w in pattern[1:] if w.startswith("-")]
    return all(flag in words[1:] for flag in flags)


def _split(command: str) -> list[str]:
    return list(_split_cached(command))


@lru_cache(maxsize=4096)
def _split_cached(command: str) -> tuple[str, ...]:
    if not any(c in command for c in "'\"\\"):
        return tuple(command.split())
    try:
        return tuple(shlex.split(command))
    except ValueError:
        return tuple(command.split())


@lru_cache(maxsize=None)
def category_patterns(name: str) -> tuple[tuple[str, ...], ...]:
    category = _category(name)
    if category is None:
        if name == "review-changes":
            return (("git", "diff"), ("git", "status"), ("git", "log", "-p"), ("git", "show"))
        return ()
    out: list[tuple[str, ...]] = []
    for command in category.commands:
        words = grammar.placeholder_words(_split(command), filled=True)
        out.append(tuple(words))
        if words[0] in _categories.JS_TOOLS:
            out += [tuple(_split(runner) + words) for runner in _categories.TOOL_RUNNERS]
    for script in category.scripts:
        for runner in _categories.SCRIPT_RUNNERS:
            out.append(tuple(_split(runner) + [script]))
    return tuple(out)


def expand(pattern: list[str]) -> list[list[str]]:
    """The pattern and its equivalents (`pip` -> `pip3`, `python -m pip`; `-n` for `--no-verify`).
    A whole program also covers the other programs that are one of its commands (`npm` covers
    `npx`, which is `npm exec`)."""
    variants = [list(pattern)]
    for eq in _programs.EQUIVALENTS:
        forms = [_split(f) for f in eq.forms]
        for form in forms:
            if pattern[: len(form)] == form:
                rest = pattern[len(form):]
                for other in forms:
                    candidate = other + rest
                    if candidate not in variants:
                        variants.append(candidate)
                break
            if len(pattern) == 1 and form[0] == pattern[0] and not any(w.startswith("-") for w in form):
                variants += [other for other in forms if len(other) == 1 and other not in variants]
                break
    if pattern and pattern[0] == "*":
        # "never use `--no-verify`": the option's other spellings of each command that has it (`git commit -n`)
        for prefix, option, aliases in _programs.OPTION_ALIASES:
            spellings = (option, *aliases)
            for written in (w for w in pattern[1:] if w in spellings):
                for spelling in spellings:
                    if spelling != written and spelling[:2] != "--":
                        candidate = _split(prefix) + [spelling if w == written else w for w in pattern[1:]]
                        if candidate not in variants:
                            variants.append(candidate)
    shorthand = _script_shorthand(pattern)
    if shorthand is not None and shorthand not in variants:
        variants.append(shorthand)
    script = _script_run(pattern)
    if script is not None and script not in variants:
        variants.append(script)
    out = list(variants)
    for variant in variants:
        for respelled in (_split_cluster(variant), _other_value_form(variant)):
            if respelled is not None and respelled not in out:
                out.append(respelled)
    # each option's other spellings, in every combination (`rm -rf` is also `rm -Rf`, `rm --recursive --force`)
    i = 0
    while i < len(out) and len(out) < _MAX_SPELLINGS:
        variant = out[i]
        i += 1
        for prefix, option, aliases in _programs.OPTION_ALIASES:
            words = _split(prefix)
            if variant[: len(words)] != words:
                continue
            spellings = (option, *aliases)
            for written in spellings:
                if written not in variant[len(words):]:
                    continue
                for spelling in spellings:
                    candidate = [spelling if w == written else w for w in variant]
                    if candidate not in out:
                        out.append(candidate)
    return out


#: at most this many spellings of one command (options with aliases multiply them)
_MAX_SPELLINGS = 24


def _other_value_form(pattern: list[str]) -> list[str] | None:
    """`--target upload` as `--target=upload` and the other way round: a long option's value
    written after `=` or as the next word is the same call (the first such option)."""
    for i, word in enumerate(pattern[1:], 1):
        if not word.startswith("--") or len(word) < 4:
            continue
        name, eq, value = word.partition("=")
        if eq and value and not value.startswith("-"):
            return [*pattern[:i], name, value, *pattern[i + 1 :]]
        following = pattern[i + 1] if i + 1 < len(pattern) else ""
        if not eq and following and following[0] not in "-*<?" and not any(c in following for c in "*?["):
            return [*pattern[:i], f"{word}={following}", *pattern[i + 2 :]]
    return None


def _split_cluster(pattern: list[str]) -> list[str] | None:
    """`rm -rf` as `rm -r -f`, when some letter of the cluster has another spelling for the
    command (lexicon programs.OPTION_ALIASES): each letter can then be respelled on its own."""
    for i, word in enumerate(pattern):
        if len(word) > 2 and word[0] == "-" and word[1] != "-" and word[1:].isalpha():
            letters = [f"-{letter}" for letter in word[1:]]
            for prefix, option, aliases in _programs.OPTION_ALIASES:
                words = _split(prefix)
                if pattern[: len(words)] == words and not set(letters).isdisjoint((option, *aliases)):
                    return [*pattern[:i], *letters, *pattern[i + 1 :]]
    return None


def _script_run(pattern: list[str]) -> list[str] | None:
    """`python manage.py migrate` -> `manage.py migrate`: a script named after its interpreter is
    the same run when started another way (`./manage.py migrate`, `uv run manage.py migrate`, `sh
    x.sh` for `bash x.sh`); the gate matches a script by its file name, however it is started
    (policy_rules.script_of reads the words the same way at run time)."""
    if not pattern or not runs_script(program_name(pattern[0])):
        return None
    script = script_of(Command(list(pattern)))
    if script is None:
        return None
    name = script.argv[0].rstrip("/").rsplit("/", 1)[-1]
    if not name or any(c in name for c in "*?[<"):
        return None
    return [name, *script.argv[1:]]


def _script_shorthand(pattern: list[str]) -> list[str] | None:
    """`pnpm run lint` <-> `pnpm lint`: the other spelling of a package script's run, when the
    word is no command of the manager itself (lexicon programs.SCRIPT_SHORTHANDS) nor a file."""
    own = _programs.SCRIPT_SHORTHANDS.get(pattern[0]) if pattern else None
    if own is None or len(pattern) < 2:
        return None
    running = pattern[1] == "run"
    script = pattern[2] if running and len(pattern) > 2 else pattern[1]
    if (script in own or script[:1] in ("-", "<", "*", "?") or "/" in script
            or script.endswith((".ts", ".js", ".mjs", ".cjs", ".tsx", ".jsx"))):
        return None
    return [pattern[0], *pattern[2:]] if running else [pattern[0], "run", *pattern[1:]]


def option_values(pattern: list[str]) -> list[str]:
    program = pattern[0] if pattern else ""
    values = list(_programs.OPTION_VALUES.get(program, ()))
    positional = [w for w in pattern[1:] if not w.startswith("-")]
    if positional:
        values += [v for v in _programs.OPTION_VALUES.get(f"{program} {positional[0]}", ()) if v not in values]
    return values


# --- verdicts ----------------------------------------------------------------------------------


def verdict_of(frame: Frame) -> tuple[str, list[str]]:
    why: list[str] = []
    base = {BAN: "deny", AVOID: "warn", ASK: "ask", REQUIRE: "deny", ONLY: "deny"}.get(frame.modality, "")
    if frame.indicative and base == "deny":
        base = "warn"
    if frame.condition == "permission" and base == "deny":
        base = "ask"
        why.append(f"'{frame.condition_text}': a human decides each time (ask)")
    elif frame.condition == "judgment" and base in ("deny", "ask"):
        base = "warn"
        why.append(f"'{frame.condition_text}': the agent decides (warn)")
    elif frame.condition == "unchecked" and base in ("deny", "ask"):
        base = "warn"
        why.append(f"'{frame.condition_text}': a condition no tool call shows (warn)")
    if frame.guessed and base == "deny":
        base = "ask"
        why.append(f"'{frame.verb}' is not a verb the tables know: read as a change to the path, a guess (ask)")
    return base, why


# --- frames -> specs ---------------------------------------------------------------------------


def _work_branch(frame: Frame, place: Place) -> list[Spec]:
    """"Always work on a feature branch", "Only commit to feature branches": commits to the
    default branches warn (which one the repository has is not in the text, and the reading is
    inferred: never a denial)."""
    if frame.condition or not any(a in _nouns.WORK_BRANCH_ACTIONS for a in frame.actions):
        return []
    if not any(o.kind == "noun" and o.meaning.get("thing") == "branch" and o.text.lower() in _nouns.WORK_BRANCH_NOUNS
               for o in frame.objects):
        return []
    # "push only to your own feature branch": pushes to the default branches; else commits there
    action = "push" if "push" in frame.actions else "commit"
    gerund = _TARGET_GERUNDS[action]
    frame.notes.append(f"the work belongs on a branch of its own: {gerund} {' or '.join(_nouns.DEFAULT_BRANCHES)} warns")
    return [Spec("target", "warn", place.line, pattern=branch, target=action, confidence=0.8,
                 what=f"{gerund} {branch}", instead="a feature branch")
            for branch in _nouns.DEFAULT_BRANCHES]


def _push_only(frame: Frame, verdict: str, line: int) -> list[Spec]:
    """"Only push to branches matching `claude/*`", "Push to `develop` only": a push that updates
    any other branch (named on the line, or the branch checked out for a bare `git push`)."""
    allowed = list(dict.fromkeys(frame.targets))
    shown = " or ".join(f"`{b}`" for b in allowed)
    frame.notes.append(f"pushes may update only {shown}")
    return [Spec("target", verdict, line, pattern="*", only=allowed, target="push", confidence=0.9,
                 what=f"pushing to a branch other than {shown}", instead=f"a branch matching {shown}")]


def resolve(frame: Frame, place: Place) -> list[Spec]:
    """The checks one frame states (possibly none; the frame's notes say why)."""
    if frame.ordering is not None:
        return _sequence(frame, place)
    if frame.requirement == "list":
        return []  # the items below carry the objects; they inherit this frame's force and verbs
    if frame.requirement == "branch":
        return _branch(frame, place)
    if frame.requirement == "placement":
        return _placement(frame, place)
    if frame.requirement in ("commit-form", "arguments"):
        return _commit_form(frame, place)
    if frame.requirement == "pr-base":
        return _pr_base(frame, place)
    if frame.requirement == "message":
        # a text every such message must hold: warned when missing (the words may differ)
        found = _message(frame, frame.objects, "warn", place)
        for spec in found:
            # only where such a text is written first (a PR's creation, a commit), not every comment or edit
            creators = [p for p in [spec.pattern, *spec.also] if " ".join(p) in _CREATORS]
            if creators:
                spec.pattern, spec.also = creators[0], creators[1:]
            spec.absent = True
            spec.confidence = 0.8
            disclosed = [p for o in frame.objects if (entry := _content_entry(o)) for p in entry.disclosed]
            if disclosed:
                # "always disclose AI use": the message says so in words of its own ("AI-assisted")
                spec.phrases = list(dict.fromkeys(disclosed))
                spec.what = f"a note that AI helped is missing from {frame.surfaces[0]} text"
            else:
                spec.what = f"{' or '.join(spec.phrases)} missing from {frame.surfaces[0]} text"
        return found
    if frame.requirement == "shape":
        return _shape(frame, place)
    if frame.modality in (REQUIRE, ONLY) and frame.targets and not frame.condition and "push" in frame.actions:
        # "Only push to `claude/*` branches": deny the others; "always push to `develop`": warn
        return _push_only(frame, "deny" if frame.modality == ONLY and not frame.indicative else "warn", place.line)
    if frame.modality in (REQUIRE, ONLY):
        work = _work_branch(frame, place)
        if work:
            return work
    verdict, why = verdict_of(frame)
    if frame.modality == REQUIRE and root_place(frame.qualifier) and {"run", "use"} & set(frame.actions):
        return _below_root(frame, place)
    if not verdict or frame.modality == REQUIRE:
        if frame.modality == REQUIRE and frame.purpose and "use" in frame.actions:
            # "Always use the Supabase MCP tools for database operations": other ways are discouraged
            return _only_for(frame, place, "warn")
        return []
    if frame.confine:
        return _confined(frame, verdict, why, place.line)
    if frame.modality == ONLY:
        if frame.purpose:
            return _only_for(frame, place, "deny")
        if frame.condition != "permission":
            frame.notes.append("'only ... when' leaves the call to the agent: advisory")
            return []
    if not frame.objects and not frame.actions:
        return []
    specs: list[Spec] = []
    objects = _expand_references(frame, place) or _unsaid_object(frame, place)
    if frame.other and frame.purpose:
        return _only_for(frame, place, verdict)
    if frame.other and frame.targets and "push" in frame.actions:
        return _push_only(frame, verdict, place.line)
    programs = [o.meaning.get("program", o.text) for o in objects if o.kind == "program" or (o.kind == "noun" and "program" in o.meaning)]
    if frame.purpose and programs:
        # "NEVER use local npm commands for publishing": npm's publishing commands, not npm
        return _dedupe([s for s in (_program_purpose(p, frame, verdict, place.line) for p in programs) if s is not None])
    actions = list(frame.actions or ["bare"])
    if any(_action_kind(a) == "git" for a in actions) and any(o.kind == "program" and o.text == "git" for o in objects):
        # "git commitコマンドを実行してはいけません": the git verb names the command; "git" alone is not banned
        objects = [o for o in objects if not (o.kind == "program" and o.text == "git")]
        actions = [a for a in actions if _action_kind(a) not in ("run", "use")] or actions
    thing_specs, objects = _thing_specs(frame, objects, verdict, place)
    specs += thing_specs
    if thing_specs and not objects:
        actions = []
    installers = _system_installers(objects) if "install" in actions else []
    if installers:
        # "never install or remove the system dotnet SDK (apt-get/snap)": those installers, that package
        specs += _system_installs(frame, [o for o in objects if o not in installers], installers, verdict, place.line)
        objects = [o for o in objects if o not in installers]
        actions = [a for a in actions if a not in ("install", "delete")]
    # writes before reads: "Never read or edit `x`" protects it from both, write first
    actions = sorted(actions, key=lambda a: _action_kind(a) == "read")
    for action in actions:
        specs += _by_action(action, frame, objects, place, verdict)
        if specs and action in ("bare",):
            break
    if frame.alternatives or place.instead:
        # "Never edit `Cargo.toml`; use `cargo add`": the commands that write it are how it is meant to change
        specs = [s for s in specs if not s.category.startswith("writes ")]
    for spec in specs:
        spec.why = why + spec.why
        if spec.kind == "command" and _state_changing(frame.text, spec.pattern):
            # "never run `aws` commands that create, modify or delete resources": its changes, not its reads
            spec.changes = True
            spec.what += " when it changes something"
            spec.why.append(f"narrowed to the commands of `{spec.pattern[0]}` that change something (the effect model's)")
            continue
        qualifier = frame.qualifier or next((f"on {o.text}" for o in objects if o.kind == "branch" and o.role in ("on", "to")), "")
        qualifier = qualifier or next((f"{o.role} {o.text}" for o in objects if o.kind == "noun" and o.role in ("with", "without")), "")
        if qualifier and spec.kind == "command" and spec.verdict == "deny" and not spec.wrapped and not spec.published:
            frame.qualifier = qualifier
            if _narrowing(frame.qualifier):
                # "in watch mode", "from inside a worktree": only some calls are meant, which the call
                # does not show; the agent is warned (asking on every `pnpm build` would stop everyday work)
                spec.verdict = "warn"
                spec.why.append(f"narrowed by '{frame.qualifier}', which no pattern can express (warn)")
        if not spec.instead:
            spec.instead = _instead(frame, place)
        if spec.kind in ("write", "create") and isinstance(spec.pattern, str) and (spared := _named_besides(frame, place, spec.pattern)):
            spec.only += spared
            spec.why.append(f"'other' spares what the text names: {', '.join(spared)}")
        if frame.condition_text and not spec.condition:
            spec.condition = frame.condition_text
    return _dedupe(specs)


def _below_root(frame: Frame, place: Place) -> list[Spec]:
    """"Run make from the repository root": the commands it names, warned when one runs below the
    root (after a `cd` into a subdirectory, or from a working directory there); `make -C dir` from
    the root passes."""
    specs: list[Spec] = []
    for obj in frame.objects:
        for spec in _command_object(obj, frame, place, "warn", lenient=True):
            if spec.kind == "command":
                where = re.split(r"[(,;:—–]| - ", frame.qualifier)[0].strip(" .!")
                spec.away = True
                spec.confidence = min(spec.confidence, 0.8)
                spec.instead = f"{spec.what} {where}"
                spec.what = f"{spec.what} run below the project root"
                spec.why.append(f"to be run {where}: warned when run below it")
                specs.append(spec)
    return _dedupe(specs)


def _every_file(action: str, frame: Frame, line: int) -> list[Spec]:
    """"Don't modify files unless asked", "ask before editing any file": every change to the
    project's files waits for a yes (deletions: the commands that delete)."""
    said = " ".join(w for w in (frame.verb, frame.phrase) if w)
    if action == "delete":
        frame.notes.append(f"'{said}' with a person's yes first: the commands that delete ask")
        return [_command(_split(c), "ask", line, f"`{c}`", 0.8) for c in _markers.DELETE_COMMANDS]
    from cf_guidance.policy.lexicon.actions import ACTIONS

    deleting = next(a.words for a in ACTIONS if a.name == "delete")
    verbs = [v for v in frame.verb.split(" or ") if v not in deleting]  # the delete action asks on its own commands
    specs: list[Spec] = []
    if any(v in _markers.MOVE_VERBS for v in verbs):
        # "ask before moving files": the commands that move or rename them
        frame.notes.append(f"'{said}' with a person's yes first: the commands that move files ask")
        specs += [_command(_split(c), "ask", line, f"`{c}`", 0.8) for c in _markers.MOVE_COMMANDS]
    if any(v not in _markers.MOVE_VERBS for v in verbs):
        frame.notes.append(f"'{said}' with a person's yes first: every change to the project's files asks")
        specs.append(Spec("write", "ask", line, pattern="**", confidence=0.8, what="changing files of the project",
                          why=[f"'{frame.phrase or frame.verb}' is every file of the project; reads and temporary files stay free"]))
    return specs


#: "other" right before an object: "do not touch other `.properties` files", "any other lock file"
_OTHER_BEFORE = re.compile(r"\bother\s+`")


def _named_besides(frame: Frame, place: Place, pattern: str) -> list[str]:
    """"Add strings to `a_en.properties`; do not touch other `.properties` files": the files the
    same block names that the banned pattern covers are the ones "other" sets apart."""
    if not _OTHER_BEFORE.search(frame.text):
        return []
    return [o.text for o in place.codes if "*" not in o.text and o.text != pattern and glob_match(pattern, o.text)]


def _thing_specs(frame: Frame, objects: list[Obj], verdict: str, place: Place) -> tuple[list[Spec], list[Obj]]:
    """"make git commits", "comment on the PR", "create branches", "ブランチ作成": a thing named in
    words and what the verb does to it (guidance.policy.lexicon.things); the objects left over."""
    if frame.in_code or any(o.kind == "code" and grammar.command_pattern(o.text, lenient=False) is not None for o in objects):
        return [], objects  # a command named in backticks says more than the words; "comments in the code" are code
    kinds: list[str] = []
    for word in frame.verb.replace(" or ", ",").split(","):
        kind = _things.VERB_KINDS.get(word.strip()) or _things.VERB_KINDS.get(word.strip().split(" ")[0])
        if kind and kind not in kinds:
            kinds.append(kind)
    for action in frame.actions:
        kind = _things.VERB_KINDS.get(action, "")
        if kind and kind not in kinds:
            kinds.append(kind)
    specs: list[Spec] = []
    left: list[Obj] = []
    for obj in objects:
        name = obj.meaning.get("thing") if obj.kind == "noun" else None
        entry = next((t for t in _things.THINGS if t.name == name), None)
        if entry is not None and entry.context and not _mentions_any(frame.text, entry.context):
            entry = None  # "leave comments everywhere": comments in the code, not on a PR
        commands: tuple[str, ...] = ()
        used = ""
        if entry is not None and (obj.role in ("", "on", "paren") or (obj.role in ("to", "dir") and "comment" in kinds)):
            for kind in kinds:
                if name == "pull-request" and kind == "create":
                    break  # opening PRs is the pull-request category (its own check and docs)
                if kind in entry.commands:
                    commands, used = entry.commands[kind], kind
                    break
        if name == "remote" and obj.role in ("on", "to") and any(o is not obj and o.meaning.get("thing") for o in objects):
            continue  # "delete branches on the remote": where the other thing is, not a remote to delete
        if commands and name == "branch" and used == "delete" and _mentions_any(frame.text, ("remote",)):
            # "never delete remote branches": deleting them on the remote (a push), not the local ones
            commands = tuple(c for c in commands if c.startswith("git push")) or commands
        if not commands:
            left.append(obj)
            continue
        patterns = [grammar.placeholder_words(_split(c), filled=True) for c in commands]
        spec = _patterns_spec(patterns, verdict, place.line, f"{_verb_ing_thing(used)} {obj.text}",
                              _confidence(obj, frame, 0.9))
        spec.why.append(f"'{frame.verb} {obj.text}' is {', '.join(commands[:3])}")
        narrowed = _NARROWING_AFTER.search(frame.text.lower().split(obj.text.lower(), 1)[-1]) if obj.text else None
        if (obj.meaning.get("qualified") or narrowed) and spec.verdict in ("deny", "ask"):
            spec.verdict = "warn"
            which = f"'{obj.meaning['qualified']} {obj.text}'" if obj.meaning.get("qualified") else \
                f"'{obj.text} {narrowed.group(1) if narrowed else ''} ...'"
            spec.why.append(f"{which} is some of them, which ones a pattern cannot say (warn)")
        specs.append(spec)
        frame.notes.append(f"'{obj.text}' ({name}) with '{used}': {', '.join(commands)}")
    return specs, left


def _state_changing(text: str, pattern: Any) -> bool:
    """A ban on a whole program the effect model knows, narrowed by a word for changing things
    right before its name ("mutating `gcloud` commands", "destructive az CLI") or after it and a
    word for its commands ("kubectl commands that modify state") (lexicon markers.STATE_CHANGING)."""
    if not isinstance(pattern, list) or len(pattern) != 1:
        return False
    from cf_guidance.gates.commands.effects import PROGRAMS  # the hook's model of what commands change

    program = pattern[0]
    if program not in PROGRAMS:
        return False
    words = "".join(c if c.isalnum() or c in "-/" else " " for c in text.lower()).split()
    for at, word in enumerate(words):
        if word != program:
            continue
        if at > 0 and words[at - 1] in _markers.STATE_CHANGING:
            return True
        after = words[at + 1 : at + 3]
        noun = next((k for k, w in enumerate(after) if w in _markers.STATE_CHANGING_NOUNS), None)
        if noun is not None and any(w in _markers.STATE_CHANGING for w in words[at + 2 + noun : at + 8 + noun]):
            return True
    return False


def _mentions_any(text: str, words: tuple[str, ...]) -> bool:
    low = " " + "".join(c if c.isalnum() or c in "-" or ord(c) > 0x2e80 else " " for c in text.lower()) + " "
    return any(f" {w} " in low or (not w.isascii() and w in low) for w in words)


def _verb_ing_thing(kind: str) -> str:
    return {"create": "creating", "delete": "deleting", "switch": "switching", "comment": "commenting on", "merge": "merging",
            "close": "closing", "approve": "approving", "edit": "editing", "rename": "renaming"}.get(kind, kind)


def _narrowing(qualifier: str) -> bool:
    if any(qualifier == q or qualifier.startswith(q + " ") for q in _markers.HOST_QUALIFIERS):
        return False  # "directly on the host": where the agent runs commands anyway
    words = qualifier.split()
    if len(words) >= 2 and words[1] in ("them", "it", "these", "those"):
        return False
    if len(words) >= 2 and words[0] not in _markers.SITUATION_QUALIFIERS and words[1] in ("any", "every", "all", "each"):
        return False  # "on any branch", "for any reason": every case, not a narrower one
    if words[:2] in (["to", "do"], ["for", "this"], ["for", "that"]):
        return False  # "to do so": the purpose said before, not a narrower case
    if words[0] == "to" and any(qualifier[3:] == v or qualifier[3:].startswith(v + " ") for v in _markers.EVASION_PURPOSES):
        return False  # "to bypass hooks": what the banned flag does, the misuse the ban is about
    if words[0] == "from" and any(w in words for w in ("pr", "routine", "branch")):
        return False
    return True


def _instead(frame: Frame, place: Place) -> str:
    objects = frame.alternatives or place.instead
    shown = [f"`{o.text}`" for o in objects if o.kind in ("code", "program")][:3]
    return " or ".join(shown)


#: "use X as <a role>": one use of the command, not every run ("as well", "as needed" do not narrow)
_ROLE_AS = re.compile(r"\bas\s+(?!well\b|needed\b|usual\b|described\b|shown\b|documented\b|instructed\b|much\b|"
                      r"soon\b|possible\b|necessary\b|required\b|follows\b|below\b|above\b|is\b|a replacement\b|"
                      r"a substitute\b|an alternative\b)([\w\"'“]+)")
#: words right after a thing's noun that narrow it to some ("a branch prefixed with `claude/`",
#: "branches named after issues", "comments that repeat the code")
_NARROWING_AFTER = re.compile(r"^\s*(prefixed|named|called|starting|beginning|ending|matching|containing|that|which)\b")


def _expand_references(frame: Frame, place: Place) -> list[Obj]:
    out: list[Obj] = []
    for obj in frame.objects:
        if obj.kind == "pronoun":
            if place.following and obj.role in ("", "like"):
                out += place.following
                frame.notes.append(f"'{obj.text}' is the list that follows")
            elif place.antecedents:
                branches = [o for o in place.antecedents if o.kind == "branch"]
                wanted = [o for o in place.antecedents if o.kind != "branch"]
                if branches and obj.role in ("to", "into", "on", "onto"):
                    wanted = branches  # "push to it": the branch named before, not a program or a path
                elif "tools" in obj.text or "commands" in obj.text:
                    wanted = [o for o in wanted if o.kind in ("program", "code")]
                elif "files" in obj.text or "directories" in obj.text:
                    wanted = [o for o in wanted if o.kind in ("path", "code")]
                elif any(o.kind == "code" for o in wanted):
                    # "run these": what was written as code, not every path-like word ("owner/repo") nor a
                    # program's name in prose ("an escape hatch", "the Husky hook runs `eslint`")
                    wanted = [o for o in wanted if o.kind not in ("path", "program")]
                elif any(o.kind == "program" for o in wanted):
                    wanted = [o for o in wanted if o.kind != "path"]
                copies = [Obj(o.kind, o.text, o.role, dict(o.meaning), o.after_file_noun, o.glob, o.head) for o in wanted]
                for copy in copies:
                    copy.meaning["antecedent"] = True
                out += copies
                frame.notes.append(f"'{obj.text}' refers to {', '.join(o.text for o in wanted[:6]) or 'nothing resolvable'}")
            continue
        if obj.kind == "deictic":
            if place.label:
                out += [Obj("code", o.text, "dir", {"antecedent": True}, True) for o in place.label]
                frame.notes.append(f"'{obj.text}' is the item's subject: {', '.join(o.text for o in place.label)}")
            elif "directory" in obj.text or "folder" in obj.text:
                # "The `api/` directory is generated. Do not edit files in this directory": the one named before
                named = [o for o in place.antecedents if o.kind in ("code", "path") and o.text.rstrip("/") and (
                    o.text.endswith("/") or o.head in ("directory", "folder", "dir"))]
                if len(named) == 1:
                    out.append(Obj("code", named[0].text, "dir", {"antecedent": True}, True))
                    frame.notes.append(f"'{obj.text}' is the directory named before: {named[0].text}")
                elif not named and place.scope:
                    out.append(_scope_directory(obj, place, frame))
            elif obj.text == "there":
                # "`legacy/` is frozen; do not add files there": the directory named last before it
                named = [o for o in place.antecedents if o.kind in ("code", "path") and o.text.endswith("/")]
                if named:
                    out.append(Obj("code", named[-1].text, "dir", {"antecedent": True}, True))
                    frame.notes.append(f"'there' is the directory named last before it: {named[-1].text}")
            elif place.scope and obj.text in ("here", "in here"):
                out.append(_scope_directory(obj, place, frame))
            elif obj.text in ("here", "in here") and (heading := _heading_path(place)):
                out += heading
                frame.notes.append(f"'{obj.text}' is the path the heading names: {heading[0].text}")
            continue
        out.append(obj)
    return out


def _unsaid_object(frame: Frame, place: Place) -> list[Obj]:
    """"Files in `proto/gen/` are managed by buf; never hand-edit.": a ban on changing, with no
    object, is about the one path named just before it (a guess: it asks, never denies). A ban
    whose object is written in words the reader did not resolve is about that thing, not the path."""
    if frame.objects or frame.condition or not frame.actions or frame.modality not in (BAN, AVOID, ASK):
        return []
    if any(w.isalpha() for w in frame.phrase.split()):
        return []  # "add files under `local/` (don't change the plugin itself)": an object in words, not that path
    if not all(_action_kind(a) == "write" for a in frame.actions):
        return []
    named = [o for o in place.antecedents if o.kind in ("code", "path") and grammar.path_glob(o.text, directory=True, prose=True)]
    if len(named) != 1:
        return []
    frame.notes.append(f"no object: the path named just before, {named[0].text}")
    return [Obj("code", named[0].text, "dir", {"antecedent": True, "guessed": True}, True)]


def _heading_path(place: Place) -> list[Obj]:
    """"### `migrations/`" over "Never edit existing files here": the path the heading is."""
    heading = place.section[-1].strip() if place.section else ""
    if len(heading) > 2 and heading[0] == heading[-1] == "`" and "`" not in heading[1:-1] and (
            grammar.path_glob(heading[1:-1], directory=True, prose=True)):
        return [Obj("code", heading[1:-1], "dir", {"antecedent": True}, True)]
    return []


def _scope_directory(obj: Obj, place: Place, frame: Frame) -> Obj:
    """In `src/gen/CLAUDE.md`, "do not edit files in this directory", "never create files here":
    the file's own directory."""
    frame.notes.append(f"'{obj.text}' is the directory of {place.source}: {place.scope}/")
    return Obj("code", place.scope + "/", "dir", {"antecedent": True}, True)


def _confidence(obj: Obj, frame: Frame, base: float = 1.0) -> float:
    value = base
    if obj.meaning.get("antecedent"):
        value = min(value, 0.75 if obj.meaning.get("guessed") else 0.85)
    if frame.inherited:
        value = min(value, 0.9)
    if obj.role == "paren":
        value = min(value, 0.8)
    if frame.guessed:
        value = min(value, 0.7)
    return value


def _by_action(action: str, frame: Frame, objects: list[Obj], place: Place, verdict: str) -> list[Spec]:
    line = place.line
    specs: list[Spec] = []
    kind = _action_kind(action)
    if kind in ("run", "use", "bare"):
        if frame.in_code and kind != "run":
            return []
        for obj in objects:
            if kind == "bare" and obj.kind in ("code", "path") and _data_file(obj.text):
                continue  # "- `docs/api.md`" under "## Do not edit": a file, not a program
            specs += _command_object(obj, frame, place, verdict, lenient=kind == "run")
        if kind == "bare":
            for obj in objects:
                if obj.kind in ("code", "path") and (_data_file(obj.text) or not any(s.kind == "command" for s in specs)):
                    glob = grammar.path_glob(obj.text, directory=False, prose=True)
                    if glob and frame.inherited and _looks_like_path(obj.text):
                        specs += _path_specs("write", obj, frame, verdict, line)
                elif obj.kind == "noun" and "path" in obj.meaning and frame.inherited:
                    specs += _path_specs("write", obj, frame, verdict, line)
                elif obj.kind == "noun" and "content" in obj.meaning:
                    specs += _message(frame, [obj], verdict, place)
        if any(o.kind == "noun" and "timeout" in o.meaning for o in objects):
            specs += _timeout(frame, objects, verdict, line)
        role = _ROLE_AS.search(frame.text.lower())
        if role and kind == "use":
            # "never use `pytest` as proof of a fix": the command in one role, which a pattern cannot see
            for spec in specs:
                if spec.kind == "command" and spec.verdict in ("deny", "ask"):
                    spec.verdict = "warn"
                    spec.why.append(f"'as {role.group(1)} ...' is one use of it, which a pattern cannot see (warn)")
        return specs
    if kind == "write" and frame.targets:
        # "NEVER make changes directly on main": commits made on main
        return [Spec("target", verdict, line, pattern=branch, target="commit", confidence=0.9, what=f"committing to {branch}")
                for branch in dict.fromkeys(frame.targets)]
    if kind == "create" and objects and all(o.kind == "noun" and o.meaning.get("surface") in _COMMIT_NOUNS for o in objects):
        # "Create commits only when explicitly requested": making a commit is `git commit`
        return _git_action("commit", frame, [], place, verdict)
    if kind in ("write", "create", "read"):
        path_kind = {"write": "write", "create": "create", "read": "read"}[kind]
        for obj in objects:
            if kind == "write" and obj.kind == "noun" and obj.meaning.get("category") in _CHANGED_BY_COMMANDS:
                # "環境変数変更" (changing environment variables), "ライブラリ更新" (library updates)
                specs.append(_category_spec(obj.meaning["category"], verdict, line, frame, obj))
                if "path" in obj.meaning:
                    specs += _path_specs(path_kind, obj, frame, verdict, line)  # "the Node version": `.nvmrc` too
                continue
            if obj.kind == "self" or (obj.kind == "noun" and "self" in obj.meaning):
                specs.append(Spec(path_kind if path_kind != "create" else "write", verdict, line, pattern=place.source,
                                  what=f"{_verb_ing(path_kind)} {place.source}", why=["'this file' is the policy file itself"]))
                continue
            if obj.kind == "noun" and "timeout" in obj.meaning:
                specs += _timeout(frame, objects, verdict, line)
                continue
            if obj.kind == "noun" and "content" in obj.meaning:
                continue
            if kind == "create" and obj.kind == "noun" and obj.meaning.get("category") in _MADE_BY_COMMANDS:
                specs.append(_category_spec(obj.meaning["category"], verdict, line, frame, obj))
                continue
            if obj.kind == "noun" and "category" in obj.meaning and action == "create" and obj.meaning["category"] == "pull-request":
                specs += _command_object(obj, frame, place, verdict, lenient=True)
                continue
            if obj.kind == "noun" and obj.meaning.get("named") and any(o.kind in ("code", "path") for o in objects):
                # "Never edit generated files: `src/gen/`, `api/types.ts`": the paths after the colon are which
                frame.notes.append(f"'{obj.text}' are the paths named after it")
                continue
            if obj.kind == "noun" and obj.meaning.get("conventional") and any(o.kind in ("code", "path") for o in place.following):
                # "Never edit auto-generated files:" over a list of them: the list says which, not where such files usually are
                frame.notes.append(f"'{obj.text}' are the paths listed below")
                continue
            listed = place.inventory.kinds.get(tuple(obj.meaning["path"])) if obj.kind == "noun" and "path" in obj.meaning else None
            if listed:
                # "Files are auto-generated by `make gen`:" then a list: what "generated files" are in this document
                frame.notes.append(f"'{obj.text}' are what the document lists as such: {', '.join(listed[:4])}")
                for text in listed:
                    specs += _path_specs(path_kind, Obj("code", text, "", {"antecedent": True}), frame, verdict, line)
                continue
            specs += _path_specs(path_kind, obj, frame, verdict, line, objects)
        if not specs and kind == "write" and verdict == "ask" and not frame.qualifier and all(o.role == "paren" for o in objects) \
                and not frame.verb.startswith("overwrit") and (
                frame.phrase.split(" or ")[0] in _markers.EVERY_FILE
                or not frame.phrase and frame.verb.split()[-1] in ("changes", "modifications")):
            # objects in parentheses ("delete files (rm, truncate)") only gloss how it is done; overwriting
            # existing files is some writes (a Write over a file), which no check tells from an edit
            return _every_file(action, frame, line)
        if not specs and not objects and kind == "write" and place.header:
            specs.append(Spec("write", verdict, line, pattern=place.source, confidence=0.9,
                              what=f"editing {place.source}", why=["a notice at the top of a generated file protects the file itself"]))
        return specs
    if kind == "git":
        return _git_action(action, frame, objects, place, verdict)
    if kind in ("add", "content") and (any(o.kind == "quote" or (o.kind == "noun" and "content" in o.meaning) for o in objects)
                                       or (kind == "content" and (frame.surfaces or _section_surfaces(place.section)))):
        if frame.messaged:
            return []  # "add", "include" ... are several actions of one verb: one message check
        frame.messaged = True
        return _message(frame, objects, verdict, place)
    if kind in ("add", "install"):
        for obj in objects:
            meaning = obj.meaning
            if obj.kind == "noun" and meaning.get("category") in _markers.INSTALLED_CATEGORIES:
                # "never install packages globally": the installs outside the project, not every one
                category = meaning["category"]
                if category == "add-dependency" and _mentions_any(frame.text, _markers.GLOBAL_WORDS):
                    category = "global-install"
                specs.append(_category_spec(category, verdict, line, frame, obj))
            elif obj.kind == "noun" and "self" in meaning or obj.kind == "self":
                specs.append(Spec("write", verdict, line, pattern=place.source, what=f"changing {place.source}"))
            elif kind == "install" and obj.kind in ("program", "code") and " " not in obj.text and not obj.text.startswith("-"):
                specs += _install(obj.text, verdict, line, frame, obj)
            elif kind == "install" and obj.kind == "noun" and "program" in meaning:
                specs += _install(meaning["program"], verdict, line, frame, obj)  # "do not install Vitest": a tool's name
            elif obj.kind == "code" and meaning.get("bare"):
                # "Install packages (npm install/uninstall)": the commands the words name, with their packages
                specs += [_command(_split(obj.text) + ["?*"], verdict, line, f"`{obj.text} <pkg>`", _confidence(obj, frame))]
        return specs
    if kind == "update":
        for obj in objects:
            if obj.kind == "noun" and obj.meaning.get("category") in ("add-dependency", "update-dependency"):
                specs.append(_category_spec("update-dependency", verdict, line, frame, obj))
            elif obj.kind == "noun" and obj.meaning.get("category") == "toolchain":
                # "never upgrade the package manager": the commands that change it, and its pin files
                specs.append(_category_spec("toolchain", verdict, line, frame, obj))
                if "path" in obj.meaning:
                    specs += _path_specs("write", obj, frame, verdict, line)
            else:
                specs += _path_specs("write", obj, frame, verdict, line)
        return specs
    if kind in ("publish", "deploy", "login"):
        category = {"publish": "publish", "deploy": "deploy", "login": "login"}[kind]
        named = [o for o in objects if o.kind == "code"]
        if named:
            for obj in named:
                specs += _command_object(obj, frame, place, verdict, lenient=True)
            return specs
        spec = _category_spec(category, verdict, line, frame, None)
        if kind == "deploy" and spec.verdict == "deny":
            spec.verdict = "ask"
            spec.why.append("a deploy ban without a command asks (which deploys are meant is not certain)")
        return [spec]
    if kind == "expose":
        for obj in objects:
            credential = obj.meaning.get("credential")
            if credential and credential[1]:  # a tool's credentials (files and variables), not "secrets" in general
                files, variables = credential
                for glob in files:
                    specs.append(Spec("read", verdict, line, pattern=glob, confidence=0.9, what=f"reading {glob}",
                                      why=[f"'{obj.text}' are kept in {glob}"]))
                if variables:
                    specs.append(Spec("variable", verdict, line, pattern=list(variables), confidence=0.9,
                                      what=f"printing {', '.join('$' + v for v in variables)}"))
        return specs
    if kind == "content":
        return specs
    if kind == "bypass":
        if place.hooks and not any(o.kind in ("code", "path", "noun") for o in objects) and (
                frame.phrase in ("", "it", "them", "this", "these", "those", "that")):
            # "The pre-commit hook scans for secrets — don't bypass (it)": the hooks the block names
            objects = [Obj("noun", "the git hooks", meaning={"hooks": True})]
        for obj in objects:
            if obj.kind == "noun" and "hooks" in obj.meaning:
                spec = _command("git commit --no-verify".split(), verdict, line, "skipping the git hooks (--no-verify)")
                spec.also += [["git", "push", "--no-verify"], ["git", "merge", "--no-verify"]]
                specs.append(spec)
                # the hook managers' own off switches (`HUSKY=0 git commit`, pre-commit's `SKIP=lint git commit`)
                spec = _command(["git", "commit"], verdict, line, "skipping the git hooks (" + ", ".join(_nouns.HOOK_SWITCHES) + ")")
                spec.also += [["git", "push"], ["git", "merge"]]
                spec.assigned = list(_nouns.HOOK_SWITCHES)
                specs.append(spec)
        return specs
    return specs


_COMMIT_NOUNS = ("commit", "commits", "git commits", "new commits")
#: programs that are families of commands (a list item "- git" under "## Forbidden" bans none of them)
_FAMILIES = frozenset(("git", "gh"))


def _action_kind(action: str) -> str:
    from cf_guidance.policy.lexicon.actions import ACTIONS

    if action == "bare":
        return "bare"
    for entry in ACTIONS:
        if entry.name == action:
            return entry.kind
    return ""


def _verb_ing(kind: str) -> str:
    return {"write": "editing", "create": "creating", "read": "reading"}.get(kind, kind)


def _looks_like_path(text: str) -> bool:
    return ("/" in text or "." in text.rsplit("/", 1)[-1]) and " " not in text


def _command(pattern: list[str], verdict: str, line: int, what: str, confidence: float = 1.0) -> Spec:
    variants = expand(pattern)
    return Spec("command", verdict, line, pattern=pattern, also=variants[1:], values=option_values(pattern),
                confidence=confidence, what=what)


def _command_object(obj: Obj, frame: Frame, place: Place, verdict: str, *, lenient: bool) -> list[Spec]:
    line = place.line
    if obj.kind in ("code", "path"):
        if obj.role == "attr":
            frame.notes.append(f"`{obj.text}` describes '{obj.head}': not a command")
            return []
        if obj.role in ("dir", "of", "at") and not obj.after_file_noun and obj.kind == "code" and not lenient:
            return []
        if obj.role == "like" or obj.role == "with" or obj.role == "paren" and not obj.meaning.get("listed"):
            lenient = True
        text = obj.text
        if text.startswith("--") and " " not in text:
            if frame.qualifier_action in _THEN:
                flagged = _THEN[frame.qualifier_action] + [text]
                spec = _command(flagged, verdict, line, f"`{' '.join(flagged)}`", _confidence(obj, frame))
                spec.why.append(f"the flag applies to {frame.qualifier_action}")
                return [spec]
        pattern = grammar.command_pattern(text, lenient=lenient)
        if pattern is None:
            frame.notes.append(f"`{text}` is not a command ({'a path or code identifier' if not lenient else 'shell operators, a placeholder only, or not program-like'})")
            return []
        pattern = _one_package(pattern, text)
        if obj.role == "paren" and not frame.inherited and not obj.meaning.get("bare") and not (
                obj.meaning.get("listed") and all(o.role == "paren" for o in frame.objects)):
            # a code span in parentheses glosses; words naming a program's command ("(prisma migrate)") say which, and
            # so does a list of spans after words naming no command ("the underlying tools (`tsc`, `eslint`)")
            return []
        spec = _command(pattern, verdict, line, f"`{text}`", _confidence(obj, frame))
        spec.exempt = _exemptions(pattern, place) + _launchers(text, frame, place, spec) + _preferred_forms(spec, frame)
        if len(pattern) == 1 and not (frame.runner and frame.modality == BAN):
            spec.exempt += _prescribed(spec, place)
        spec.via = _wrappers_of(pattern, place, frame)
        return [spec]
    if obj.kind == "program":
        if obj.meaning.get("subset"):
            return []  # "other destructive git commands": which of git's commands is not said
        if "under" in obj.meaning:
            # "Always use `uv run`": the programs the document runs under the runner, else its ecosystem's
            found = _run_under_runner(obj.meaning["under"], place)
            frame.notes.append(f"no program named: {', '.join(found) or 'none'} (run under {obj.meaning['under']} in the text, "
                               "else the runner's ecosystem)")
            return [spec for program in found for spec in _command_object(
                Obj("program", program.split()[0], meaning={"command": program}), frame, place, "warn" if verdict == "deny" else verdict,
                lenient=lenient)]
        if "doing" in obj.meaning:
            # "never apply Terraform", "don't read logs with kubectl": the document's own subcommand named
            # by the clause's words (`terraform apply`, `kubectl logs`), never the whole program
            doing = set(obj.meaning["doing"])
            commands = place.inventory.subcommands(obj.text, doing)
            frame.notes.append(f"`{obj.text}` subcommands the document runs among the words: {', '.join(commands) or 'none'}")
            return [spec for command in commands for spec in _command_object(
                Obj("program", obj.text, meaning={"command": command}), frame, place, verdict, lenient=lenient)]
        if obj.meaning.get("program", obj.text) in _FAMILIES:
            frame.notes.append(f"a bare `{obj.text}` names a family of commands, not one: never banned whole")
            return []
        written = obj.meaning.get("command", obj.meaning.get("program", obj.text))
        spec = _command(written.split(), verdict, line, f"`{written}`", _confidence(obj, frame, 0.95))
        spec.exempt = (_exemptions(spec.pattern, place) + _launchers(spec.pattern[0], frame, place, spec)
                       + _preferred_forms(spec, frame))
        if not (frame.runner and frame.modality == BAN):
            # a runner the text makes a must says how every run of its programs goes: the bare ones the
            # document lists ("`php artisan migrate`" under "only run artisan inside the container") are
            # its shorthand; under a softer one ("remember to prefix with `fvm`") they pass, as written
            spec.exempt += _prescribed(spec, place)
        spec.via = _wrappers_of(spec.pattern, place, frame)
        return [spec]
    if obj.kind == "noun":
        meaning = obj.meaning
        if "program" in meaning:
            spec = _command([meaning["program"]], verdict, line, f"`{meaning['program']}` ({obj.text})", _confidence(obj, frame, 0.9))
            return [spec]
        if meaning.get("commands"):
            out = []
            for code in meaning["commands"]:
                named = grammar.command_pattern(code, lenient=True)
                if named:
                    spec = _command(named, verdict, line, f"`{code}` ({obj.text})", _confidence(obj, frame, 0.95))
                    spec.exempt = _exemptions(named, place)
                    out.append(spec)
            if out:
                return out
        if "category" in meaning:
            if not _names_commands(obj.text, meaning["category"]):
                own = place.inventory.for_category(meaning["category"], named=True)
                if verdict == "ask" and own:
                    # "ask before running build": the commands this document builds with
                    out = []
                    for words in own[:4]:
                        named = grammar.command_pattern(" ".join(shlex.quote(w) for w in words), lenient=True)
                        if named:
                            spec = _command(named, verdict, line, f"`{' '.join(words)}` ({obj.text})", 0.8)
                            spec.why.append(f"'{obj.text}' is done with `{' '.join(words)}` in this document")
                            out.append(spec)
                    return out
                if meaning["category"] == "test" and _whole(obj.text) and verdict in ("deny", "warn"):
                    return [_whole_suite(frame, obj, line)]
                frame.notes.append(f"'{obj.text}' names a task, not its commands: a ban needs the commands named")
                return []
            spec = _category_spec(meaning["category"], verdict, line, frame, obj)
            spec.exempt += [list(w) for w in place.inventory.in_section(place.section)
                            if _pattern_covers(list(spec.pattern), w) or any(_pattern_covers(a, w) for a in spec.also)]
            if meaning["category"] in _markers.INSTALLED_CATEGORIES and spec.verdict in ("deny", "ask") \
                    and not _mentions_any(frame.text, _INSTALL_WORDS):
                # "Don't test third-party libraries": packages named with no verb that installs them
                spec.verdict = "warn"
                spec.why.append(f"'{obj.text}' without a verb that installs them: installing is a guess (warn)")
            return [spec]
        if "timeout" in meaning:
            return []
    return []


#: the words of the actions that install or add ("Installing OS packages is not allowed")
_INSTALL_WORDS = tuple(w for entry in _actions.ACTIONS if entry.kind in ("install", "add") for w in entry.words)


def _names_commands(words: str, category: str) -> bool:
    """"lint commands", "git operations", "the dev server": the commands themselves (a ban can
    name them); "tests", "the build": the task (only an ordering or a purpose can)."""
    found = _category(category)
    return found is not None and words in found.objects


def _run_under_runner(runner: str, place: Place) -> list[str]:
    """The programs the document runs under `runner` (`uv run pytest`, `fvm flutter pub get`,
    `docker compose exec app php artisan test`), else those of its ecosystem (lexicon
    programs.RUNNER_ECOSYSTEMS): what "always use `uv run`" is about when it names no program."""
    out: list[str] = []
    for words in place.inventory.positives(runner):
        for cmd in _shell_analysis.analyze(" ".join(shlex.quote(w) for w in words)).commands:
            launcher = cmd.origin.rsplit(">", 1)[-1].split(" ", 1)[0] if cmd.origin else ""
            if runner in cmd.wrappers or launcher == runner:
                program = cmd.program
            elif cmd.program == runner and len(cmd.argv) > 1 and runner in _programs.PREFIX_RUNNERS:
                program = cmd.argv[1].rsplit("/", 1)[-1]
            else:
                continue
            if program != runner and program not in out and _NAME.fullmatch(program):
                out.append(program)
    if not out:
        out = list(_programs.ECOSYSTEM_PROGRAMS.get(_programs.RUNNER_ECOSYSTEMS.get(runner, ""), ()))
    return out[:8]


#: a program's name as the document's commands give it (not a path, a variable or a placeholder)
_NAME = re.compile(r"[A-Za-z][\w.+-]*")


def _wrappers_of(pattern: list[str], place: Place, frame: Frame) -> list[str]:
    """Runners the document itself runs the command under (`uv run --project x pytest ...`, `uv run
    python -m pytest`), or the rule names as its alternative ("run Python through `uv run`"): a ban
    on running the command bare does not reach the way the document prescribes."""
    program = pattern[0]
    out: list[str] = []
    # the rule's alternative and its host qualifier name a runner of the program alone: "use `poetry
    # add` instead of `pip install`" prescribes another command, not `poetry run pip install`; a
    # runner rule's alternative is its runner whatever it runs ("artisan commands inside the container")
    for alternative in frame.alternatives if len(pattern) == 1 or frame.runner else ():
        head = alternative.text.split()[0].rsplit("/", 1)[-1].lower() if alternative.text.split() else ""
        if head in _programs.CONTAINER_LAUNCHERS:
            out += [launcher for launcher in _programs.CONTAINER_LAUNCHERS if launcher not in out]  # any of them runs a container
        elif head in _programs.WRAPPER_RUNNERS and head != program and head not in out:
            out.append(head)
        # "use `bun` instead of vite": `bunx vite` is the preferred tool's own way of running it
        # (not for a rival of the tool's job: `pnpm exec npm` is no way of using pnpm instead of npm;
        # not when the text names one command of the tool: "use `pnpm lint`" is that script, not `pnpm eslint`)
        if program not in _programs.WRAPPER_RUNNERS and len(alternative.text.split()) == 1 \
                and not any(head in family and program in family for family in _programs.RIVALS):
            out += [r for r in _programs.OWN_RUNNERS.get(head, ()) if r != program and r not in out]
    literal = [w for w in pattern if w not in ("*", "?*")]  # `python -m pytest *`: the words written out
    for words in place.inventory.positives():
        head = words[0].rsplit("/", 1)[-1] if words else ""
        if head in _programs.WRAPPER_RUNNERS and head not in out and head != program and any(
                list(words[m : m + len(literal)]) == literal for m in range(1, len(words))):
            out.append(head)
    if len(pattern) == 1 and any(frame.qualifier == q or frame.qualifier.startswith(q + " ") for q in _markers.MACHINE_QUALIFIERS):
        # "never run `npm` on the host": in a container is where it is to run
        out += [launcher for launcher in _programs.CONTAINER_LAUNCHERS if launcher not in out]
    return out


def _prescribed(spec: Spec, place: Place) -> list[list[str]]:
    """A whole program banned ("never use npm", "pnpm only") where the same document prescribes a
    command of it all the same ("Install the CLI once with `npm i -g @acme/cli`"): that command,
    in any of its spellings, passes; every other use still meets the ban."""
    out: list[list[str]] = []
    runners = [also[0] for also in spec.also if len(also) == 1]  # `npx`, which a ban on `npm` covers
    for words in (w for program in [spec.pattern[0], *runners] for w in place.inventory.positives(program)):
        if len(words) < 2 or any(w[:1] == "<" or w in ("*", "...") for w in words):
            continue  # the bare program, or a template (`npm install <pkg>`): no one command
        if words[0] in runners and not words[1].startswith("-") and [words[0], words[1], "*"] not in out:
            # "`bunx vitest run <file>`": the program the document runs that way, with any arguments
            out.append([words[0], words[1], "*"])
        for variant in expand(list(words)):
            if variant not in spec.exempt and variant not in out:
                out.append(variant)
    return out


def _preferred_forms(spec: Spec, frame: Frame) -> list[list[str]]:
    """The rule's own alternative when the ban's equivalents cover it ("use `docker compose`
    instead of `docker-compose`", "`python3`, not `python`"): the form the text prescribes is
    never what it discourages, so it (with any arguments) is exempt."""
    out: list[list[str]] = []
    for alternative in frame.alternatives:
        if alternative.kind == "program":
            words: list[str] | None = [alternative.meaning.get("program", alternative.text)]
        elif alternative.kind == "code" and "/" not in alternative.text.split(" ", 1)[0]:
            words = grammar.command_pattern(alternative.text, lenient=True)
        else:
            continue  # a launcher path (`bin/rails` instead of `rails`) is spared by _launchers, never the bare program
        words = [w for w in words or [] if w not in ("*", "?*")]
        if words and any(_pattern_covers(variant, words) for variant in [spec.pattern, *spec.also]) and words + ["*"] not in out:
            out.append(words + ["*"])
    return out


def _one_package(pattern: list[str], written: str) -> list[str]:
    """`npm install <pkg>`: after a command that adds packages (the add-dependency category), a
    trailing placeholder is one package; the bare command installs the lockfile and adds none."""
    words = written.split()
    if pattern[-1:] != ["*"] or not words or words[-1] in ("*", "...", "\u2026"):
        return pattern
    for command in category_patterns("add-dependency"):
        if list(command[-1:]) == ["?*"] and pattern[:-1] == list(command[:-1]):
            return pattern[:-1] + ["?*"]
    return pattern


def _launchers(written: str, frame: Frame, place: Place, spec: Spec) -> list[list[str]]:
    """The project's own launcher of a program banned by its bare name (`bin/rails`, `./bin/rake`,
    `node_modules/.bin/tsc`), when the text prescribes it (the rule's alternative or a command of
    the document): the ban is on the bare program, the prescribed path runs it the project's way
    (the reason names it). A path the text does not prescribe still meets the ban."""
    words = written.split()
    if not words or "/" in words[0]:
        return []  # the ban names a path itself (`./target/debug/deno test`)
    program = words[0]
    heads = [o.text.split()[0] for o in frame.alternatives + place.instead if o.kind == "code" and o.text.split()]
    heads += [w[0] for w in place.inventory.positives(program) if w]
    out: list[list[str]] = []
    for head in heads:
        if "/" in head and head.rsplit("/", 1)[-1] == program and [head, "*"] not in out:
            out.append([head, "*"])
    if out and not spec.instead:
        spec.instead = " or ".join(f"`{launcher[0]}`" for launcher in out[:2])
    return out


def _exemptions(pattern: list[str], place: Place) -> list[list[str]]:
    """Commands the same document prescribes that are instances of a banned pattern: an env
    assignment in front (`USE_SYSTEM_BUN=1 bun test <file>`) or a placeholder filled in
    (`bun scripts/build.ts` for `bun <file>`). A ban is about the form it names, not these."""
    out: list[list[str]] = []
    has_placeholder = any(w in ("*", "?*", "*.*") for w in pattern[1:])
    if "*" in pattern[0] or "?" in pattern[0]:
        return out
    for words in place.inventory.positives(pattern[0]):
        if not has_placeholder and "=" not in words[0]:
            continue  # only an env assignment in front can make an instance of a pattern without placeholders
        assignments = [w for w in words if "=" in w.split("/")[0] and w[:1].isalpha() and w.split("=")[0].isupper()]
        rest = words[len(assignments):] if words[: len(assignments)] == assignments else words
        if not rest:
            continue
        command = [rest[0].rsplit("/", 1)[-1]] + rest[1:]
        if not _pattern_covers(pattern, command):
            continue
        if assignments:
            out.append(assignments + grammar.placeholder_words(command))
        elif has_placeholder and all("<" not in w for w in command) and command != pattern:
            out.append(command)
    return out


def _patterns_spec(patterns: list[list[str]], verdict: str, line: int, what: str, confidence: float, category: str = "") -> Spec:
    """One command check standing for several commands (and their equivalents)."""
    spec = Spec("command", verdict, line, pattern=patterns[0], also=[], category=category, confidence=confidence, what=what)
    for pattern in patterns:
        for variant in expand(pattern):
            if variant != spec.pattern and variant not in spec.also:
                spec.also.append(variant)
    spec.values = sorted({v for p in patterns for v in option_values(p)})
    return spec


def _whole(text: str) -> bool:
    """"the full test suite", "the entire suite", "all tests": the whole of a task (lexicon markers.WHOLE_WORDS)."""
    return any(word in _markers.WHOLE_WORDS for word in text.lower().split())


def _whole_suite(frame: Frame, obj: Obj, line: int) -> Spec:
    """"Don't run the full test suite, run the affected package's tests": a test command run bare
    (`pnpm test`, `pytest`, `cargo test` at the root) is warned; one narrowed to a path, a test
    name or a package (`pytest tests/x.py`, `cargo test -p core`, `pnpm --filter web test`) passes.
    A warning: which runs are "the full suite" the call shows only by its missing arguments."""
    patterns = [list(p) for p in category_patterns("test") if not any("*" in w or "?" in w for w in p[1:])]
    spec = _patterns_spec(patterns, "warn", line, f"the whole test suite ({obj.text})", 0.8, "test")
    spec.exempt = [p + ["?*", "*"] for p in [spec.pattern, *spec.also]]
    programs = dict.fromkeys(p[0] for p in [spec.pattern, *spec.also])
    spec.exempt += [[program, option, "*"] for program in programs for option in _programs.PACKAGE_SELECTORS.get(program, ())]
    spec.why.append(f"'{obj.text}': a test command with nothing that narrows it runs the whole suite (warn)")
    return spec


def _category_spec(category: str, verdict: str, line: int, frame: Frame, obj: Obj | None) -> Spec:
    patterns = [list(p) for p in category_patterns(category)]
    spec = _patterns_spec(patterns, verdict, line, _category_what(category),
                          0.9 if obj is None or not obj.meaning.get("antecedent") else 0.8, category)
    spec.why.append(f"'{obj.text if obj else category}' is the {category} category ({len(patterns)} command forms)")
    found = _category(category)
    if found is not None:
        spec.exempt += [_split(command) for command in found.exempt]
    if obj is not None and obj.meaning.get("qualified") and spec.verdict != "warn":
        spec.verdict = "warn"
        spec.why.append(f"'{obj.meaning['qualified']} {obj.text}' is some of them, which ones a pattern cannot say (warn)")
    return spec


#: how `gh pr create` names the branch a pull request is opened against
_BASE_OPTIONS = ("--base", "-B")


def _pr_base(frame: Frame, place: Place) -> list[Spec]:
    """A pull request opened against another branch than the one the text names is warned; one
    against a branch it rules out is stopped. `gh pr create` without a base uses the repository's
    default branch, which the call does not show: left alone."""
    specs: list[Spec] = []
    wanted = [o.text for o in frame.objects if not o.meaning.get("ruled out")]
    for obj in frame.objects:
        if obj.meaning.get("ruled out"):
            spec = _command(["gh", "pr", "create", "--base", obj.text], "deny", place.line,
                            f"pull requests against `{obj.text}`", 0.9)
            spec.also = [["gh", "pr", "create", "-B", obj.text], ["gh", "pr", "create", f"--base={obj.text}"]]
            spec.instead = " or ".join(f"`--base {b}`" for b in wanted)
            specs.append(spec)
    if wanted:
        spec = _command(["gh", "pr", "create", "--base"], "warn", place.line,
                        f"pull requests against another branch than {' or '.join(f'`{b}`' for b in wanted)}", 0.9)
        spec.also = [["gh", "pr", "create", "-B"]]
        spec.exempt = [["gh", "pr", "create", option, b, "*"] for b in wanted for option in _BASE_OPTIONS] + [
            ["gh", "pr", "create", f"--base={b}", "*"] for b in wanted]
        spec.instead = " or ".join(f"`--base {b}`" for b in wanted)
        specs.append(spec)
    return specs


def _category_what(category: str) -> str:
    return {"build": "build commands", "test": "test commands", "check": "the project's checks", "lint": "lint commands", "typecheck": "type checkers",
            "format": "formatters", "dev": "dev servers", "database": "database commands", "deploy": "deploys",
            "publish": "publishing packages", "add-dependency": "adding dependencies",
            "update-dependency": "updating dependencies", "login": "logging in to registries and clouds",
            "env-change": "changing environment variables and secrets", "git-write": "git commands that change the repository",
            "force-push": "force pushes", "git-destructive": "destructive git commands (reset --hard, clean, force push, "
            "branch -D, ...)", "pull-request": "opening pull requests", "tag": "creating or pushing tags",
            "review-changes": "reviewing changes", "migrate": "database migrations",
            "toolchain": "changing the language or package manager version (volta pin, corepack, yarn set version, ...)"}.get(
                category, category)


def _program_purpose(program: str, frame: Frame, verdict: str, line: int) -> Spec | None:
    patterns = [list(p) for p in category_patterns(frame.purpose) if p and p[0] == program]
    if not patterns:
        frame.notes.append(f"no {frame.purpose} command of `{program}` is known")
        return None
    spec = _patterns_spec(patterns, verdict, line, f"`{program}` for {_category_what(frame.purpose)}", 0.9)
    spec.why.append(f"the {frame.purpose} commands of `{program}`")
    return spec


def _only_for(frame: Frame, place: Place, verdict: str) -> list[Spec]:
    """"Only use `spin` for linting", "never run any other command to build": every command of
    the category except the ones the rule names (and the ones the document prescribes for it)."""
    category = frame.purpose
    spec = _category_spec(category, verdict, place.line, frame, None)
    allowed: list[list[str]] = []
    for obj in frame.objects + frame.alternatives:
        pattern = grammar.command_pattern(obj.text, lenient=True) if obj.kind == "code" else \
            [obj.text] if obj.kind == "program" else None
        if pattern:
            # "Only use `make` targets to build": the program named alone runs the job with any arguments
            allowed.append(pattern + ["*"] if len(pattern) == 1 else pattern)
    allowed += place.inventory.for_category(category)
    spec.exempt += allowed
    shown = list(dict.fromkeys(" ".join(a) for a in allowed))[:3]
    spec.what = f"{_category_what(category)} other than " + (" or ".join(f"`{a}`" for a in shown) or "the ones it names")
    if not allowed:
        spec.confidence = min(spec.confidence, 0.7)
    spec.why.append("everything of the category but what the rule names")
    return [spec]


def _confined(frame: Frame, verdict: str, why: list[str], line: int) -> list[Spec]:
    """"Only edit files in `src/`", "don't touch anything outside `packages/foo`": a change to any
    other path of the project. An inference about files the text never names, so it asks at most
    (warns when the text is soft, or when some of the places it allows are not paths: the list of
    what is allowed is then incomplete). Paths outside the project and temporary files are not
    what such a rule is about."""
    kind = "create" if all(_action_kind(a) == "create" for a in frame.actions) else "write"
    allowed: list[str] = []
    unknown = False
    for obj in frame.objects:
        if obj.kind in ("code", "path") and _looks_like_path(obj.text + ("" if "/" in obj.text or "." in obj.text else "/")):
            glob = grammar.path_glob(obj.text, directory=not _looks_like_file(obj.text), prose=True)
            if glob:
                allowed.append(glob)
                continue
        if obj.kind == "noun" and "path" in obj.meaning:
            allowed += [g for g in obj.meaning["path"] if g != _nouns.OUTSIDE_PROJECT]
            continue
        unknown = True
    if not allowed:
        frame.notes.append("confined to places that are not paths: no check")
        return []
    verdict = "ask" if verdict == "deny" else verdict
    if unknown and verdict == "ask":
        verdict = "warn"
        why = why + ["some of the places it allows are not paths: the list is incomplete (warn)"]
    shown = ", ".join(f"`{o.text}`" for o in frame.objects if o.kind in ("code", "path"))
    pattern = "**"
    if frame.within:
        # "In `packages/web/`, only edit files in `src/`": the paths are the directory's
        pattern = grammar.scoped_glob(pattern, frame.within)
        allowed = [grammar.scoped_glob(glob, frame.within) for glob in allowed]
    spec = Spec(kind, verdict, line, pattern=pattern, only=list(dict.fromkeys(allowed)), confidence=0.7,
                what=f"{_verb_ing(kind)} files outside {shown}", condition=frame.condition_text,
                why=why + [f"the rule confines changes to {', '.join(dict.fromkeys(allowed))}: any other path of the project"])
    return [spec]


def _unread_situation(frame: Frame) -> str:
    """Words after a git verb that the reading left out, opening with a qualifier ("never push with
    configs that reference a local path"): the ban is about some of those actions, not the bare verb."""
    if frame.targets or frame.remotes or frame.qualifier or frame.surfaces or frame.condition or frame.ordering is not None:
        return ""
    words = frame.text.lower().replace(",", " ").replace(".", " ").split()
    if frame.verb not in words:
        return ""
    tail = [w for w in words[words.index(frame.verb) + 1 :] if w not in _markers.ADVERBS]
    if len(tail) < 2 or tail[0] not in _markers.QUALIFIERS:
        return ""
    return " ".join(tail[:8])


def _path_specs(kind: str, obj: Obj, frame: Frame, verdict: str, line: int, among: list[Obj] | None = None) -> list[Spec]:
    """`among`: the sentence's objects as resolved ("there" is the directory named before it),
    by default the frame's."""
    specs = _paths_of(kind, obj, frame, verdict, line, frame.objects if among is None else among)
    if frame.within:
        for spec in specs:
            if spec.kind in ("write", "read", "create") and isinstance(spec.pattern, str):
                spec.pattern = grammar.scoped_glob(spec.pattern, frame.within)
    elif root_place(frame.qualifier):
        # "Don't create markdown files in the repository root": a name glob matches anywhere, the
        # text means the files at the top (`./*.md`; `docs/x.md` stays free)
        for spec in specs:
            if spec.kind in ("write", "read", "create") and isinstance(spec.pattern, str) and "/" not in spec.pattern:
                spec.pattern = "./" + spec.pattern
                spec.what += " at the project root"
    return specs


def _paths_of(kind: str, obj: Obj, frame: Frame, verdict: str, line: int, among: list[Obj]) -> list[Spec]:
    specs: list[Spec] = []
    if obj.kind in ("code", "path"):
        if obj.role == "attr":
            frame.notes.append(f"`{obj.text}` describes '{obj.head}': not a path")
            return []
        if obj.role in ("of",) and not obj.after_file_noun:
            frame.notes.append(f"`{obj.text}` belongs to '{obj.head}', not a file")
            return []
        kept = kind != "create" and obj.head in _nouns.KEPT_NOUNS  # "never edit the specs in `spec/`": the files there
        if obj.role == "dir" and not obj.after_file_noun and not _looks_like_file(obj.text) and not obj.meaning.get("antecedent") \
                and not kept:
            frame.notes.append(f"`{obj.text}` is where '{obj.head or 'something'}' is, not a file the rule protects")
            return []
        if obj.role in ("with", "like", "for", "by"):
            return []
        if obj.role == "dir" and any(_named_kind(o) for o in among):
            frame.notes.append(f"`{obj.text}` is where the kind of file named is meant, not every file there")
            return []
        directory = obj.role == "dir" or obj.after_file_noun and obj.role in ("dir", "at", "from")
        glob = grammar.path_glob(obj.text, directory=directory, prose=True)
        if glob is None:
            frame.notes.append(f"`{obj.text}` is not a path")
            return []
        if obj.meaning.get("anywhere") and not glob.startswith("**/"):
            glob = "**/" + glob  # "the migrations folder": a directory of that name, at any depth
        if obj.after_file_noun and glob.startswith(".") and not any(c in glob for c in "/*?[") \
                and not any(glob == stem for stem, _ in _nouns.FILE_FAMILIES):
            glob = "*" + glob  # "`.snap` files", "`.lock.yml` files": files with that ending
        if obj.kind == "path" and not _looks_like_path(obj.text):
            return []
        confidence = _confidence(obj, frame, 1.0 if obj.kind == "code" else 0.9)
        bare = not any(c in glob for c in "*?[") and "." not in glob.rsplit("/", 1)[-1]
        for member in _family(glob):
            specs.append(Spec(kind, verdict, line, pattern=member, confidence=confidence, what=f"{_verb_ing(kind)} `{obj.text}`"))
        if kind == "write" and not any(w in frame.text.lower() for w in _categories.BY_HAND):
            specs += _implied_writes(glob, verdict, line, confidence)
        if bare:
            specs.append(Spec(kind, verdict, line, pattern=glob + "/**", confidence=confidence, what=f"{_verb_ing(kind)} `{obj.text}`"))
        return specs
    # a place written without backticks ("generated code under /api/gen") places the files as well
    places = [o for o in among if o.role == "dir" and (o.kind == "code" or o.kind == "path" and _looks_like_path(o.text))]
    if obj.kind == "noun" and "path" not in obj.meaning and "placed" in obj.meaning and places:
        # "put tests in `tests/`, never in `src/`": where tests go, tests are test files
        obj = Obj(obj.kind, obj.text, obj.role, dict(obj.meaning, path=obj.meaning["placed"]), obj.after_file_noun, obj.glob)
    if obj.kind == "noun" and "path" in obj.meaning:
        if places and not _named_kind(obj):
            frame.notes.append(f"'{obj.text}' is scoped by the directory the sentence names")
            return []
        globs = [obj.glob] if obj.glob else list(obj.meaning["path"])
        where = ""
        if places:
            # "Never put test files in `src/`": files of that name in that directory, not the directory
            bases = [b.removesuffix("/**") for b in (grammar.path_glob(o.text, directory=True, prose=True) for o in places) if b]
            globs = [grammar.scoped_glob(glob, base) for base in bases for glob in globs]
            where = " in " + ", ".join(f"`{o.text}`" for o in places)
        # a glob the text gives is what it means; a kind of file where such files usually are is a guess
        confidence = 0.9 if obj.glob else 0.7 if obj.meaning.get("conventional") else 0.8
        for glob in globs:
            clean = glob if glob == _nouns.OUTSIDE_PROJECT else grammar.path_glob(glob.replace("\\", ""), directory=False, prose=True)
            if clean:
                specs.append(Spec(kind, verdict, line, pattern=clean, confidence=_confidence(obj, frame, confidence),
                                  what=f"{_verb_ing(kind)} {obj.text}{where}", why=[f"'{obj.text}' means {clean}"]))
        return specs
    if obj.kind == "noun" and "credential" in obj.meaning and kind in ("read", "write"):
        files, _ = obj.meaning["credential"]
        for glob in files:
            specs.append(Spec(kind, verdict, line, pattern=glob, confidence=0.8, what=f"{_verb_ing(kind)} {glob}"))
    return specs


def _placement(frame: Frame, place: Place) -> list[Spec]:
    """"Put tests in `tests/`", "Docs must live under `docs/`": a new file of that kind elsewhere is
    warned (the names are a convention; a file of the kind may still belong elsewhere)."""
    kind, places = frame.objects[0], frame.objects[1:]
    allowed = [g for g in (grammar.path_glob(o.text, directory=True, prose=True) for o in places) if g]
    globs = [kind.glob] if kind.glob else list(kind.meaning.get("path") or kind.meaning["placed"])
    where = ", ".join(f"`{o.text}`" for o in places)
    return [Spec("create", "warn", place.line, pattern=glob, only=allowed, confidence=0.7,
                 what=f"creating {kind.text} outside {where}", why=[f"'{kind.text}' means {glob}; they go in {where}"])
            for glob in globs] if allowed else []


def _named_kind(obj: Obj) -> bool:
    """A kind of file known by its names wherever it is ("test files": `*.test.*`, "markdown
    files": `*.md`), unlike one known by where it lies ("generated files", "vendored code"): a
    directory in the same sentence narrows the names to it instead of standing for the kind."""
    if obj.kind != "noun" or not ("path" in obj.meaning or "placed" in obj.meaning):
        return False
    globs = [obj.glob] if obj.glob else list(obj.meaning.get("path") or obj.meaning["placed"])
    return bool(globs) and all("/" not in glob for glob in globs)


def _implied_writes(glob: str, verdict: str, line: int, confidence: float) -> list[Spec]:
    """Commands that write the protected file without naming it (`npm install x` writes package.json)."""
    from cf_guidance._glob import glob_match

    specs = []
    for name, commands in _categories.IMPLIED_WRITES:
        if glob_match(glob, name):
            patterns = [grammar.placeholder_words(_split(c), filled=True) for c in commands]
            # an inference about tools, not what the text names: it asks at most
            spec = _patterns_spec(patterns, verdict, line, f"commands that change `{name}`", min(confidence, 0.75),
                                  f"writes {name}")
            spec.why.append(f"{', '.join(commands[:3])}, ... write {name}")
            specs.append(spec)
    return specs


_SCRIPT_SUFFIXES = ("sh", "bash", "zsh", "py", "js", "mjs", "cjs", "ts", "rb", "pl", "ps1", "bat", "cmd", "exe")


def _data_file(text: str) -> bool:
    """A path that names a file or directory to protect, not a program (`docs/api.md`, `vendor/`)."""
    if " " in text.strip() or text.startswith("-"):
        return False
    if text.endswith("/"):
        return True
    last = text.rsplit("/", 1)[-1]
    stem, dot, suffix = last.rpartition(".")
    return bool(dot and stem and suffix.isalnum() and suffix.lower() not in _SCRIPT_SUFFIXES)


def _family(glob: str) -> list[str]:
    """`.env` stands for `.env.local`, `.env.production`, ... (lexicon.nouns.FILE_FAMILIES)."""
    head, _, last = glob.rpartition("/")
    for stem, members in _nouns.FILE_FAMILIES:
        if last == stem:
            return [f"{head}/{m}" if head else m for m in members]
    return [glob]


def _looks_like_file(text: str) -> bool:
    last = text.rstrip("/").rsplit("/", 1)[-1]
    return "." in last and not text.endswith("/")


#: git verbs whose object may name only some of their calls ("never push half-finished work",
#: "don't revert other people's commits"): warned, not stopped
_PARTIAL_GIT_ACTIONS = ("push", "pull", "merge", "rebase", "amend", "squash", "revert")
#: what a rule about a branch stops, as its reason says it
_TARGET_GERUNDS = {"commit": "committing to", "push": "pushing to", "merge": "merging into"}


#: words after a git verb that leave the action whole: the objects that mean the action itself
#: ("your changes"), manner adverbs ("directly") and the words of doing it on one's own ("unasked",
#: "on your own initiative"), which are the rule's condition, never some of the calls
_WHOLE_ACTION_WORDS = _markers.WHOLE_ACTION_OBJECTS | set(_markers.ADVERBS) | {
    word for phrase in _markers.ON_YOUR_OWN for word in phrase.split()}


def _whole_action(phrase: str) -> bool:
    return set(phrase.split()) <= _WHOLE_ACTION_WORDS


def _git_action(action: str, frame: Frame, objects: list[Obj], place: Place, verdict: str) -> list[Spec]:
    from cf_guidance.policy.lexicon.actions import ACTIONS

    line = place.line
    entry = next(a for a in ACTIONS if a.name == action)
    specs: list[Spec] = []
    if action == "open":
        for obj in objects:
            if obj.kind == "noun" and obj.meaning.get("category") == "pull-request":
                spec = _category_spec("pull-request", verdict, line, frame, obj)
                spec.what = "opening pull requests"
                specs.append(spec)
            elif obj.kind == "noun" and obj.meaning.get("category") == "tag":
                specs.append(_category_spec("tag", verdict, line, frame, obj))  # "never create tags"
        return specs
    if action == "merge" and any(o.kind == "noun" and o.meaning.get("category") == "pull-request" for o in objects):
        return [_command(["gh", "pr", "merge"], verdict, line, "merging pull requests", 0.95)]
    if action == "work-on":
        # "never work directly on main": a commit while on it, or a push to it
        branches = frame.targets or [o.meaning.get("branch", "main") for o in objects if o.kind == "branch"]
        for branch in dict.fromkeys(branches):
            for target in ("commit", "push"):
                specs.append(Spec("target", verdict, line, pattern=branch, target=target, confidence=0.9,
                                  what=f"{'committing' if target == 'commit' else 'pushing'} to {branch}"))
        if not specs:
            frame.notes.append("working on something other than a named branch: advisory")
        return specs
    if action in _TARGET_GERUNDS and (frame.targets or any(o.kind == "branch" for o in objects)):
        branches = frame.targets or [o.meaning.get("branch", "main") for o in objects if o.kind == "branch"]
        for branch in dict.fromkeys(branches):
            spec = Spec("target", verdict, line, pattern=branch, target=action, confidence=0.95,
                        what=f"{_TARGET_GERUNDS[action]} {branch}")
            if action == "merge" and frame.sources:
                # "never merge `upstream/main` directly into main": that merge, not every merge into main
                spec.merged = list(frame.sources)
                spec.what = f"merging {' or '.join(f'`{s}`' for s in frame.sources)} into {branch}"
            specs.append(spec)
        return specs
    if action == "revert" and re.search(r"\brevert(?:ing)?\s+(?:back\s+)?to\b", frame.text.lower()):
        frame.notes.append("'revert to' names an older state of the code, not commits to revert: advisory")
        return []
    if action in ("commit", "stage"):
        paths = [o for o in objects if o.kind in ("code", "path") and grammar.path_glob(o.text, directory=False, prose=True)]
        secrets = [o for o in objects if o.kind == "noun" and ("credential" in o.meaning or o.meaning.get("category") == "env-change")]
        content = [o for o in objects if o.kind == "noun" and "content" in o.meaning]
        kinds = [o for o in objects if o.kind == "noun" and "path" in o.meaning and not secrets]
        if kinds and not paths:
            # "never commit binaries (DLLs, EXEs)", "do not commit build artifacts": the staged paths of that kind
            for obj in kinds:
                for spec in _paths_of("stage", obj, frame, verdict, line, frame.objects):
                    spec.what = f"committing {obj.text}"
                    specs.append(spec)
            return specs
        if paths or secrets:
            for obj in paths:
                glob = grammar.path_glob(obj.text, directory=False, prose=True)
                family = _family(glob or "")
                specs.append(Spec("stage", verdict, line, pattern=family if len(family) > 1 else glob,
                                  what=f"{'staging' if action == 'stage' else 'committing'} `{obj.text}`"))
            if secrets:
                specs.append(Spec("stage", verdict, line, pattern=list(SECRET_GLOBS), confidence=0.9,
                                  what="committing files that hold secrets (.env files, keys)"))
            return specs
        if content:
            return _message(frame, content, verdict, place)
        if objects and any(o.kind in ("code", "noun", "quote") for o in objects if o.role not in ("to", "on", "for", "with")):
            frame.notes.append(f"{action}'s object is not a path or secret: advisory")
            return []
        if not objects and frame.phrase and not _whole_action(frame.phrase):
            # "never commit large files": what it names is no path, and every commit is not what it bans
            frame.notes.append(f"{action}'s object ('{frame.phrase}') is not a path or secret: advisory")
            return []
    if action == "push" and frame.remotes:
        return [_command(["git", "push", remote], verdict, line, f"pushing to the `{remote}` remote", 0.9)
                for remote in frame.remotes]
    if action == "force-push" or (action == "push" and any(o.kind == "noun" and o.meaning.get("category") == "force-push" for o in objects)):
        return [_category_spec("force-push", verdict, line, frame, None)]
    if action == "push" and any(o.kind == "noun" and o.meaning.get("category") == "tag" for o in objects):
        # "do not push tags": the pushes that carry tags, not every push
        return [_command(["git", "push", flag], verdict, line, "pushing tags", 0.9) for flag in ("--tags", "--follow-tags")]
    if action == "push" and any(o.kind == "noun" and "credential" in o.meaning for o in objects):
        # "never push secrets": what gets pushed was committed first; the commit of a secret file is the call to stop
        return [Spec("stage", verdict, line, pattern=list(SECRET_GLOBS), confidence=0.9,
                     what="committing files that hold secrets (.env files, keys)")]
    if action == "tag":
        return [_category_spec("tag", verdict, line, frame, None)]
    commands = [o for o in objects if o.kind == "code" and len(o.text.split()) > 1
                and o.text.split()[0] == "git" and action in o.text.split()[1].replace("-", " ").split()]
    if commands:
        # "`git push --force`는 금지입니다": the verb and its command, written out
        return [s for o in commands for s in _command_object(o, frame, place, verdict, lenient=True)]
    if objects and action in _PARTIAL_GIT_ACTIONS and any(
            o.kind in ("code", "path") and o.role not in ("with", "paren") for o in objects):
        frame.notes.append(f"{action} with an object it cannot check ({', '.join(o.text for o in objects)})")
        return []
    unread = _unread_situation(frame) if not objects else ""
    if unread and action in ("commit", "stage"):
        # "never commit with configs that reference a local path": some commits, which no pattern tells apart
        frame.notes.append(f"'{unread}' narrows the {action} to a situation no tool call shows: advisory")
        return []
    some = action in _PARTIAL_GIT_ACTIONS and (bool(unread) or bool(frame.phrase) and not any(
        o.kind in ("code", "flag") for o in objects) and not _whole_action(frame.phrase))
    flags = [o.text for o in objects if o.kind in ("code", "flag") and o.role == "with" and o.text.startswith("-")]
    published = action in ("amend", "squash", "rebase") and _mentions_any(frame.text, _markers.PUBLISHED)
    for command in entry.commands:
        # "Never commit with `--no-verify`": the verb's command with that option, not every commit
        for written in [f"{command} {flag}" for flag in flags] or [command]:
            pattern = grammar.placeholder_words(_split(written), filled=True)
            spec = _command(pattern, "warn" if some and not published else verdict, line, f"`{written}`",
                            0.95 if not frame.inherited else 0.9)
            if published:
                # "never amend pushed commits": held once this session pushed them (the gate reads its history)
                spec.published = True
                spec.verdict = verdict_of(Frame(frame.modality, condition=frame.condition))[0] or verdict
                spec.what += " of commits already pushed"
                spec.why.append("the commits it rewrites were pushed: held after a push of the session, warned before")
            elif some:
                # "never merge both the old and the new versions": some merges, which no pattern tells apart
                spec.why.append(f"'{frame.verb} {frame.phrase}' is some of them, which ones a pattern cannot say (warn)")
            specs.append(spec)
    return specs


def _system_installers(objects: list[Obj]) -> list[Obj]:
    """The objects that name system package managers ("with apt", "(apt-get/snap)")."""
    return [o for o in objects if o.kind in ("program", "path", "code") and o.text
            and all(part in _programs.SYSTEM_INSTALLERS for part in o.text.lower().split("/"))]


def _system_installs(frame: Frame, things: list[Obj], installers: list[Obj], verdict: str, line: int) -> list[Spec]:
    """The installers' own subcommands for the frame's verbs (install; remove) on the package the
    sentence names, as a name prefix (apt's `dotnet-sdk-8.0` for "the dotnet SDK")."""
    names = [o.meaning.get("program", o.text).lower() for o in things
             if o.kind == "program" or (o.kind == "noun" and "program" in o.meaning) or (o.kind == "code" and " " not in o.text.strip())]
    verbs = ["install"] + (["delete"] if "delete" in frame.actions else [])
    specs: list[Spec] = []
    for name in names:
        for installer in dict.fromkeys(part for o in installers for part in o.text.lower().split("/")):
            for verb in verbs:
                for sub in _programs.SYSTEM_INSTALLERS[installer].get(verb, ()):
                    spec = _command([installer, sub, f"{name}*"], verdict, line, f"`{installer} {sub} {name}`", 0.9)
                    spec.why.append(f"'{name}' through the system's package manager `{installer}`")
                    specs.append(spec)
    if not names:
        frame.notes.append("the installers are named, but not what they must not install")
    return specs


def _install(name: str, verdict: str, line: int, frame: Frame, obj: Obj) -> list[Spec]:
    first = _INSTALLERS[0].split() + [name]
    spec = _command(first, verdict, line, f"installing `{name}`", _confidence(obj, frame, 0.9))
    for installer in _INSTALLERS[1:]:
        for variant in expand(installer.split() + [name]):
            if variant not in spec.also and variant != spec.pattern:
                spec.also.append(variant)
    spec.values = sorted({v for p in [spec.pattern] + spec.also for v in option_values(p)})
    return [spec]


_MESSAGE_VERBS = ("emit", "emitting", "sign", "signing", "credit", "crediting")


def _message(frame: Frame, objects: list[Obj], verdict: str, place: Place) -> list[Spec]:
    """Text not to put in commit messages or PR texts: only when the sentence says where (a
    surface: "to commits", "in the PR description"), names such text (a trailer, attribution),
    or its verb is about text ("emit"); or when its section is about such texts ("## Commit
    guidelines") and the text is a trailer or an attribution ("Co-Authored-By", "Generated with ...")."""
    line = place.line
    surfaces = list(frame.surfaces)
    if not (surfaces or any(o.kind == "noun" and "content" in o.meaning for o in objects)
            or any(v in frame.verb.split() for v in _MESSAGE_VERBS)):
        named = _section_surfaces(place.section)
        attributions = [o for o in objects if o.kind in ("quote", "code") and _attribution_like(o.text)]
        if named and objects and all(o.meaning.get("unquoted") for o in objects):
            # "## Pull requests and commits" then "- Never mention Copilot/GPT": names, the section says where
            attributions = objects
        if not named or not attributions:
            frame.notes.append("quoted text without where it goes (commits, PRs): not a message check")
            return []
        # "## Commit guidelines" then "- Do not include `Co-Authored-By` lines": the section says where
        frame.notes.append(f"where the text goes: the section '{place.section[-1]}'")
        surfaces, objects = named, attributions
    names = [o for o in objects if o.meaning.get("unquoted")]
    if names and len(names) < len(objects):
        # "never credit Claude or mention AI assistance": the text the tables know is certain, a bare name asks
        return (_message_spec(frame, [o for o in objects if o not in names], verdict, line, surfaces)
                + _message_spec(frame, names, verdict, line, surfaces))
    return _message_spec(frame, objects, verdict, line, surfaces)


def _message_spec(frame: Frame, objects: list[Obj], verdict: str, line: int, surfaces: list[str]) -> list[Spec]:
    """The message check of `objects`, on the commands that write the texts named by `surfaces`."""
    phrases: list[str] = []
    for obj in objects:
        if obj.kind == "quote":
            phrases.append(obj.text.strip().lower())
        elif obj.kind == "noun" and "content" in obj.meaning:
            phrases += _own_phrases(obj, frame) or list(obj.meaning["content"])
        elif obj.kind == "code" and (":" in obj.text or obj.text[:1].isupper()):
            phrases.append(obj.text.strip().rstrip(":").lower())
    if not phrases and surfaces and frame.phrase and len(frame.phrase.split()) <= 4:
        # "Never add test plan to PR description": the words themselves
        phrases.append(frame.phrase)
    # short words match too much; an emoji (gitmoji, "🤖") is one character and says what it means
    phrases = list(dict.fromkeys(p for p in phrases if p and (len(p) >= 3 or not p.isascii())))
    if not phrases:
        return []
    carriers: list[str] = []
    surfaces_text = " ".join(surfaces)
    if "commit" in surfaces_text:
        carriers += CARRIERS["commit"]
    if ("pr" in surfaces_text.split() or "pull request" in surfaces_text or "pr " in surfaces_text
            or "description" in surfaces_text):
        carriers += CARRIERS["pr"]
    if "comment" in surfaces_text:
        carriers += CARRIERS["comment"]
    if not carriers or "prs" in surfaces_text.split():
        carriers = list(dict.fromkeys(CARRIERS["commit"] + CARRIERS["pr"] + CARRIERS["comment"]))
    carriers = list(dict.fromkeys(carriers))
    patterns = [_split(c) for c in carriers]
    spec = Spec("message", verdict, line, pattern=patterns[0], also=patterns[1:], phrases=phrases,
                confidence=0.75 if objects and all(o.meaning.get("unquoted") for o in objects)
                else 0.95 if any(o.kind == "quote" or "content" in o.meaning for o in objects) else 0.85,
                what=" or ".join(f'"{p}"' for p in phrases[:3]) + " in commit messages or PR text")
    return [spec]


def _attribution_like(text: str) -> bool:
    """A trailer (`Co-Authored-By`, `Reviewed-by:`) or an attribution ("Generated with Claude Code"):
    text of a commit or a PR, which a section about them bans with no "in commits" of its own."""
    low = text.strip().lower()
    return bool(_TRAILER.match(low)) or any(m in low for m in _nouns.ATTRIBUTION_MARKS)


_TRAILER = re.compile(r"^[a-z]+(?:-[a-z]+)*-by\b")


def _section_surfaces(section: tuple[str, ...]) -> list[str]:
    """The texts the nearest heading that names one is about ("Commit Guidelines": commits,
    "GitHub PR rules": PRs), in the words of lexicon.nouns.SURFACES."""
    for heading in reversed(section):
        text = f" {' '.join(heading.lower().replace('/', ' ').replace('&', ' ').split())} "
        found = [s for s in sorted(_nouns.SURFACES, key=len, reverse=True) if f" {s} " in text]
        if found:
            return found
    return []


def _content_entry(obj: Obj) -> _nouns.ContentNoun | None:
    """The entry of lexicon.nouns.CONTENT_NOUNS a noun object names."""
    if obj.kind != "noun" or "content" not in obj.meaning:
        return None
    return next((c for c in _nouns.CONTENT_NOUNS if obj.text in c.words), None)


def _own_phrases(obj: Obj, frame: Frame) -> list[str]:
    """"with yourself as co-author": the agent's own trailer, not a human's."""
    entry = _content_entry(obj)
    if entry is None or not entry.own_phrases:
        return []
    text = frame.text.lower().replace(obj.text, " ")
    while text.count('"') >= 2:  # a quoted text is another object ("Generated with Claude Code")
        first = text.index('"')
        text = text[:first] + " " + text[text.index('"', first + 1) + 1 :]
    rest = " " + text + " "
    for ch in ",.;:()`'\"":
        rest = rest.replace(ch, " ")
    if any(f" {w} " in rest for w in _nouns.SELF_WORDS):
        frame.notes.append(f"'{obj.text}' of the agent itself: a human's stays allowed")
        return list(entry.own_phrases)
    return []


def _timeout(frame: Frame, objects: list[Obj], verdict: str, line: int) -> list[Spec]:
    """"Do not set a timeout when running `bun bd`": the command under `timeout`, or a Bash call with one."""
    text = frame.text
    codes = [o for o in objects if o.kind == "code"]
    if not codes:
        # the command follows "when running" / "for", after the object phrase
        import re

        found = re.findall(r"`([^`]+)`", text)
        codes = [Obj("code", c) for c in found]
    specs = []
    for obj in codes:
        pattern = grammar.command_pattern(obj.text, lenient=True)
        if pattern:
            spec = _command(pattern, verdict, line, f"a timeout on `{obj.text}`")
            spec.wrapped = "timeout"
            specs.append(spec)
    return specs


def _sequence(frame: Frame, place: Place) -> list[Spec]:
    ordering = frame.ordering
    assert ordering is not None
    if ordering.step and ordering.then_paths:
        return _tool_step(frame, place, [])
    thens = [list(p) for p in _THEN_GROUPS.get(ordering.then, ())]
    then = _THEN.get(ordering.then)
    if then is None and ordering.then.startswith("`"):
        then = grammar.command_pattern(ordering.then[1:], lenient=True)
    if then is not None:
        thens = [then]
    specs: list[Spec] = []
    for gated in thens:
        specs += _sequence_of(frame, place, gated)
    return specs


#: actions named as a kind ("before any remote command", "GitHub 操作前"): each command they gate
_THEN_GROUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "remote": (("git", "push"), ("git", "fetch"), ("git", "pull")),
    "github": (("gh", "pr", "create"), ("gh", "pr", "merge"), ("gh", "issue", "create"), ("git", "push")),
    # "before tagging a release": an annotated or signed tag, or a GitHub release (a bare `git tag`
    # lists tags, and `git tag -d` deletes one)
    "release": (("git", "tag", "-a"), ("git", "tag", "-s"), ("gh", "release", "create")),
}


def _sequence_of(frame: Frame, place: Place, then: list[str]) -> list[Spec]:
    ordering = frame.ordering
    assert ordering is not None
    if ordering.step:
        return _tool_step(frame, place, then)
    verdict = "warn" if ordering.soft or frame.condition else "deny"
    specs: list[Spec] = []
    first: list[Obj] = []
    for obj in ordering.first:
        if obj.kind == "code" and ("&&" in obj.text or ";" in obj.text):
            # "run `pnpm lint && pnpm test` before pushing": each command of the chain
            parts = [p.strip() for p in obj.text.replace("&&", ";").split(";") if p.strip()]
            first += [Obj("code", p, obj.role, dict(obj.meaning)) for p in parts]
        else:
            first.append(obj)
    for obj in first:
        if obj.kind == "code":
            pattern = grammar.command_pattern(obj.text, lenient=True)
            if pattern is None:
                frame.notes.append(f"`{obj.text}` is not a command to run first")
                continue
            if pattern[-1] in _markers.LONG_RUNNING:
                frame.notes.append(f"`{obj.text}` keeps running (a server or watcher): not a step done before")
                continue
            first_step = _first_step(pattern, place)
            if first_step is None:
                frame.notes.append(f"`{obj.text}` is a command the document forbids: not demanded first")
                continue
            before = _unwrapped(first_step)
            alternatives = _script_forms(before, place) + [p for p in place.inventory.spellings(first_step) if not place.inventory.bans(p)]
            spec = Spec("sequence", verdict, place.line, before=before, before_any=alternatives, then=list(then),
                        target=ordering.target, edits=list(ordering.edits), confidence=0.95 if not frame.inherited else 0.9,
                        what=f"`{' '.join(then)}` before `{' '.join(before)}` ran")
            specs.append(spec)
        elif obj.kind == "noun" and "made-by" in obj.meaning:
            key = obj.meaning["made-by"]
            makers = [words for words in place.inventory.positives() if any(key in w.lower() for w in words[1:])]
            steps = [_first_step(grammar.placeholder_words(w), place) for w in makers]
            makers = [m for i, m in enumerate(steps) if m is not None and m not in steps[:i]]
            if not makers:
                frame.notes.append(f"no command of the document makes '{obj.text}': the action is a warning")
                spec = _command(list(then), "warn", place.line, f"`{' '.join(then)}` before {obj.text} exist", 0.8)
                spec.why.append(f"'{obj.text}' cannot be seen at a tool call: a warning")
                specs.append(spec)
                continue
            specs.append(Spec("sequence", verdict, place.line, before=makers[0], before_any=makers[1:], then=list(then),
                              target=ordering.target, edits=list(ordering.edits), confidence=0.8,
                              what=f"`{' '.join(then)}` before {obj.text} exist (`{' '.join(makers[0])}`)"))
        elif obj.kind == "noun" and "category" in obj.meaning:
            category = obj.meaning["category"]
            own = place.inventory.for_category(category)
            # `helm lint <chart>`: a placeholder is any argument, as for the commands that make a thing above
            steps = [_first_step(grammar.placeholder_words(list(p)), place) for p in own] + [
                _first_step(list(p), place) for p in category_patterns(category)]
            patterns = [p for i, p in enumerate(steps) if p and p not in steps[:i]]
            if not patterns:
                continue
            spec = Spec("sequence", "warn" if ordering.target else verdict, place.line, before=patterns[0],
                        before_any=patterns[1:], then=list(then), target=ordering.target, category=category, edits=list(ordering.edits),
                        confidence=0.85, what=f"`{' '.join(then)}` before {_category_what(category)} ran")
            specs.append(spec)
    codes = [spec for spec in specs if spec.kind == "sequence" and not spec.category and spec.before is not None]
    if ordering.either and len(codes) > 1:
        # "run `git status` or `git branch` first": one rule that any of them satisfies
        joined = codes[0]
        for spec in codes[1:]:
            joined.before_any += [spec.before or []] + spec.before_any
        joined.what = f"`{' '.join(then)}` before one of " + ", ".join(f"`{' '.join(s.before or [])}`" for s in codes) + " ran"
        specs = [spec for spec in specs if spec not in codes[1:]]
    return specs


def _tool_step(frame: Frame, place: Place, then: list[str]) -> list[Spec]:
    """The check of an ordering whose step is reading or updating files (cf_guidance.policy.steps),
    before the command `then` or, with none, before the edits of `then_paths`; globs of a
    subdirectory's file are below its directory. "First" under a section (below the document's
    title) is before the work that section is about: no check."""
    ordering = frame.ordering
    assert ordering is not None
    if ordering.sectional and len(place.section) > 1:
        frame.notes.append(f"'first' under '{place.section[-1]}': before that work, which no edit shows")
        return []

    def scoped(globs: list[str]) -> list[str]:
        return [g if g == ANY_CHANGE or not place.scope else grammar.scoped_glob(g, place.scope) for g in globs]

    paths = scoped([o.text for o in ordering.first])
    then_paths = scoped(ordering.then_paths) if not then else []
    verb = "a read of" if ordering.step == "read" else "an update of"
    action = f"`{' '.join(then)}`" if then else ("any edit" if then_paths == [ANY_CHANGE] else "edits of " + ", ".join(then_paths))
    return [Spec("sequence", "warn" if ordering.soft or frame.condition else "deny", place.line, then=list(then), target=ordering.target,
                 edits=scoped(ordering.edits), step=ordering.step, paths=paths, then_paths=then_paths,
                 confidence=0.85 if not frame.inherited else 0.8, what=f"{action} before {verb} " + ", ".join(f"`{p}`" for p in paths))]


def _unwrapped(before: list[str]) -> list[str]:
    """`uv run pytest` is `pytest`, `npx tsc` is `tsc`: the sequence gate reads the session's
    commands through the shell analysis, which strips runners and wrappers, so the command that
    must run first is named as that analysis names it."""
    found = _shell_analysis.analyze(shlex.join(before)).commands
    if len(found) == 1 and found[0].argv and found[0].argv != before and all(w in before for w in found[0].argv):
        return list(found[0].argv)
    return before


def _first_step(pattern: list[str], place: Place) -> list[str] | None:
    """The command an ordering demands first: `relax`ed, unless the document forbids that shorter
    form ("never run `pnpm test`" beside `pnpm test --run`), then whole with its options; None when
    the document forbids it whole too (an ordering never demands a command the text bans)."""
    relaxed = relax(pattern)
    if not place.inventory.bans(relaxed):
        return relaxed
    return None if place.inventory.bans(pattern) else pattern


def relax(pattern: list[str]) -> list[str]:
    """A command that must run first, up to its first option and without trailing placeholders:
    `pytest tests/ -v` is satisfied by `pytest tests/`, `tools/lint.js --js` by `tools/lint.js`,
    `cargo clippy --tests -- -D warnings` by `cargo clippy` (what follows an option may be its
    value); `python -m pytest` keeps its module."""
    words = [pattern[0]]
    index = 1
    while index < len(pattern):
        word = pattern[index]
        if word == "-m" and index + 1 < len(pattern) and not pattern[index + 1].startswith("-"):
            words += [word, pattern[index + 1]]
            index += 2
            continue
        if word.startswith("-"):
            break
        words.append(word)
        index += 1
    while len(words) > 1 and words[-1] in ("*", "?*", "*.*"):
        words.pop()
    return words


def _script_forms(before: list[str], place: Place) -> list[list[str]]:
    """`flint` as a package script: `npm run flint`, `yarn flint`, ... (when it is not a program)."""
    if len(before) != 1 or before[0] in _programs.KNOWN_PROGRAMS or "." in before[0]:
        return []
    name = before[0]
    forms = [["npm", "run", name], ["yarn", name], ["yarn", "run", name], ["pnpm", name], ["pnpm", "run", name],
             ["bun", "run", name], ["make", name]]
    for words in place.inventory.script(name):
        if words not in forms:
            forms.append(words)
    return forms


def _branch(frame: Frame, place: Place) -> list[Spec]:
    """New branch names must match one of the forms the rule names (`feature/<name>` or
    `fix/<name>`: `feature/*` or `fix/*`)."""
    globs: list[str] = []
    for obj in frame.objects:
        glob = "".join("*" if part.startswith("<") else part for part in _placeholder_split(obj.text))
        if not glob or " " in glob:
            continue
        if not glob.endswith("*"):
            glob += "*"
        if glob.strip("*") and glob not in globs:
            globs.append(glob)
    if not globs:
        return []
    verdict = "deny" if frame.cue in ("must", "is required", "are required", "required to", "has to", "have to") else "warn"
    shown = " or ".join(globs)
    return [Spec("branch", verdict, place.line, pattern=globs[0] if len(globs) == 1 else globs, confidence=0.9,
                 what=f"branch names that match none of {shown}" if len(globs) > 1 else f"branch names that do not match {shown}",
                 why=["branch naming rule: new branches must match " + ("one of the forms" if len(globs) > 1 else "the prefix")])]


def _placeholder_split(text: str) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(text):
        if text[i] == "<":
            end = text.find(">", i)
            if end != -1:
                out.append(text[i : end + 1])
                i = end + 1
                continue
        out.append(text[i])
        i += 1
    return out


def _spellings(prefix: str, option: str) -> list[str]:
    """The other spellings of an option of `prefix` (`-s` for `--signoff` of `git commit`)."""
    for command, long, aliases in _programs.OPTION_ALIASES:
        if command == prefix and option == long:
            return list(aliases)
        if command == prefix and option in aliases:
            return [long] + [a for a in aliases if a != option]
    return []


def _commit_form(frame: Frame, place: Place) -> list[Spec]:
    """"Always commit as Claude ... Use: `git -c user.name=... commit -m "message"`": commits need
    the options of the prescribed form."""
    habits = [(o, c.split(), options) for o in frame.objects if o.kind == "code" for c, options in _programs.HABIT_OPTIONS
              if o.text.split()[:len(c.split())] == c.split() and set(options) & set(o.text.split())]
    if habits:
        # "Always `git pull --rebase`": every call of the command carries the option (a hard word denies)
        form, command, options = habits[0]
        needed = [[w, *_spellings(" ".join(command), w)] for w in form.text.split() if w in options]
        verdict = "deny" if strong_cue(frame.cue) else "warn"
        return [Spec("arguments", verdict, place.line, pattern=command, requires=needed, confidence=0.8,
                     values=option_values(command), what=f"`{' '.join(command)}` without {' '.join(r[0] for r in needed)}",
                     instead=f"`{form.text}`", why=["the text prescribes the options every call carries"])]
    forms = [o for o in frame.objects + place.codes + place.following if o.kind == "code" and " commit" in f" {o.text}"
             and o.text.split()[:1] == ["git"]]
    if not forms:
        frame.notes.append("no prescribed commit command found")
        return []
    words = _split(forms[0].text)
    requires: list[list[str]] = []
    i = 1
    while i < len(words):
        word = words[i]
        if word == "-c" and i + 1 < len(words):
            requires.append([words[i + 1]])
            i += 2
            continue
        if word in ("-m", "--message", "-F"):
            i += 2
            continue
        if word.startswith("-") and word not in ("-a", "--all", "-am"):
            requires.append([word, *_spellings("git commit", word)])
        i += 1
    if not requires:
        return []
    return [Spec("arguments", "warn", place.line, pattern=["git", "commit"], requires=requires, confidence=0.8,
                 values=option_values(["git", "commit"]),
                 what=f"commits without {' '.join(r[0] for r in requires)}", instead=f"`{forms[0].text}`",
                 why=["the text prescribes the form every commit takes"])]


#: the commands that write each text a shape rule is about (lexicon.shapes)
_SHAPE_CARRIERS = {"commit": COMMIT_COMMANDS, "title": TITLE_COMMANDS, "body": BODY_COMMANDS}
_SHAPE_SURFACE = {("commit",): "Commit messages", ("title",): "PR titles", ("commit", "title"): "Commit messages and PR titles",
                  ("body",): "PR, issue and comment texts", ("title", "body"): "PR titles and texts",
                  ("commit", "body"): "Commit messages and PR, issue and comment texts",
                  ("commit", "title", "body"): "Commit messages and PR, issue and comment texts"}


def _shape(frame: Frame, place: Place) -> list[Spec]:
    """A message shape: checked on the texts the clause names, else those its section is about
    ("## Commit messages"); a convention named alone ("Use Conventional Commits") is about commits."""
    obj = next((o for o in frame.objects if o.kind == "shape"), None)
    if obj is None:
        return []
    surfaces = frame.surfaces or surfaces_of(" ".join(place.section).lower().split())
    if not surfaces and frame.cue == "convention":
        surfaces = ["commit"]
    if not surfaces:
        frame.notes.append("a message shape without the texts it is about (commits, PR titles): advisory")
        return []
    meaning = obj.meaning
    if meaning.get("heading") and not (place.section and any(
            f" {n} " in f" {place.section[-1].lower()} " for n in _shapes.SUBJECT_HEADINGS)):
        frame.notes.append("a form without the line it is about (a subject line, a title): advisory")
        return []
    certain = bool(meaning.get("certain"))
    verdict = "deny" if frame.verb == "strong" and certain else "warn"
    confidence = 0.85 if certain else 0.7
    why = [] if verdict == "deny" else ["a soft wording or an uncertain reading: warns"]
    if meaning["form"] == "signoff":
        if "commit" not in surfaces and frame.surfaces:
            return []
        return [Spec("arguments", verdict, place.line, pattern=["git", "commit"], requires=[list(_shapes.SIGNOFF_OPTIONS)],
                     confidence=confidence, values=option_values(["git", "commit"]), what="commits without a sign-off",
                     instead="`git commit -s`", why=why + ["every commit carries a Signed-off-by line"])]
    if meaning["form"] == "gpg":
        return [Spec("arguments", verdict, place.line, pattern=["git", "commit"], requires=[list(_shapes.GPG_OPTIONS)],
                     confidence=confidence, values=option_values(["git", "commit"]), what="unsigned commits",
                     instead="`git commit -S`", why=why + ["every commit carries a signature"])]
    if meaning["form"] == "reference":
        # a PR's reference is in its body (or title), written when it is created: not every comment
        texts = (["commit"] if "commit" in surfaces else []) + (["pr"] if "title" in surfaces or "body" in surfaces else [])
        carriers_of = {"commit": _SHAPE_CARRIERS["commit"], "pr": (("gh", "pr", "create"), ("glab", "mr", "create"))}
        carriers = [c for t in texts for c in carriers_of[t]]
        return [Spec("shape", "warn", place.line, pattern=list(carriers[0]), also=[list(c) for c in carriers[1:]],
                     form="reference", part="body", confidence=0.7,
                     what=" and ".join({"commit": "Commit messages", "pr": "PR descriptions"}[t] for t in texts),
                     why=["the reference may be written otherwise than a pattern finds: warns"])]
    if "body" in surfaces and meaning["form"] not in ("emoji", "dash"):
        # a first line's form is a title's, never a description's or a comment's
        surfaces = [s for s in surfaces if s != "body"]
        if not surfaces:
            frame.notes.append("a first line's form said of descriptions or comments, which have none: advisory")
            return []
    carriers = list(dict.fromkeys(tuple(c) for s in surfaces for c in _SHAPE_CARRIERS[s]))
    starts = list(meaning.get("starts") or meaning.get("chars") or [])
    if frame.cue == "convention" and meaning["form"] == "starts":
        # "Types: feat, fix, deps": the project's own types begin a message as the convention's do
        starts += [f for t in place.types for f in (f"{t}:", f"{t}(*):", f"{t}!:", f"{t}(*)!:") if f not in starts]
    spec = Spec("shape", verdict, place.line, pattern=list(carriers[0]), also=[list(c) for c in carriers[1:]],
                form=str(meaning["form"]), starts=starts,
                max_length=int(meaning.get("max") or 0),
                part="body" if "body" in surfaces else "", confidence=confidence,
                what=_SHAPE_SURFACE[tuple(s for s in ("commit", "title", "body") if s in surfaces)], why=why)
    return [spec]


def spec_key(spec: Spec) -> str:
    """What makes two checks the same check (their reasons and confidences aside)."""
    return repr((spec.kind, spec.pattern, spec.before, spec.then, spec.target, spec.wrapped, spec.away, spec.phrases, spec.category,
                 spec.form, spec.starts, spec.max_length, spec.part, spec.edits, spec.merged))


def _dedupe(specs: list[Spec]) -> list[Spec]:
    seen: set[str] = set()
    out: list[Spec] = []
    for spec in specs:
        key = spec_key(spec)
        if key in seen:
            continue
        seen.add(key)
        out.append(spec)
    return out


def cap(spec: Spec) -> Spec:
    """Uncertain checks never deny: under `DENY_CONFIDENCE` a deny becomes ask."""
    if spec.verdict == "deny" and spec.confidence < DENY_CONFIDENCE:
        spec.verdict = "ask"
        spec.why.append(f"confidence {spec.confidence:.2f} is under {DENY_CONFIDENCE}: asks instead of denying")
    return spec


#: surfaces, for tests and docs
SURFACE_WORDS = _nouns.SURFACES
