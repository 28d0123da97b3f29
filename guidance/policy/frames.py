"""Clauses read into frames: the force, action, objects and conditions of what a sentence says.

One frame per rule a clause states: "Never run `a` or `b` unless asked" is one frame (modality
`ban`, action run, objects `a` and `b`, condition permission). The reader walks the tokens of
a clause (guidance.policy.text) and applies the lexicon's tables; it decides nothing about
checks (guidance.policy.resolve does). Every decision it makes is written to the frame's
`notes`, which `cf-guidance compile --explain LINE` shows.

English is read in word order: an optional subject, a cue ("never"), adverbs ("directly"), one
or more verbs ("delete or modify"), then the object phrase up to a word that ends it ("unless",
"instead of", "before", a comma that starts a new clause). Chinese, Japanese and Korean
clauses are read by guidance.policy.cjk into the same frames.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from cf_guidance.policy.lexicon import actions as _actions
from cf_guidance.policy.lexicon import categories as _categories
from cf_guidance.policy.lexicon import cjk as _cjk_lex
from cf_guidance.policy.lexicon import cues as _cues
from cf_guidance.policy.lexicon import markers as _markers
from cf_guidance.policy.lexicon import nouns as _nouns
from cf_guidance.policy.lexicon import programs as _programs
from cf_guidance.policy.lexicon import things as _things
from cf_guidance.policy.text import CJK, CODE, PUNCT, QUOTE, SYMBOL, WORD, Token, join
from cf_guidance.shell.unwrap import RUNNER_SUBCOMMANDS

BAN, AVOID, ASK, REQUIRE, ONLY = "ban", "avoid", "ask", "require", "only"

#: words that end an object phrase (what follows is a condition, a reason or a new clause)
_STOPS = frozenset(
    """unless without except instead rather before after until because since so as when whenever if but while
    then which that where otherwise than once whereas though although—""".split()
)
_DETERMINERS = frozenset("the a an any all your our their my these those this that existing new other its some every each "
                         "both either such another".split())
#: prepositions after an object-less git verb that start a situation ("never push on weekends")
_GIT_SITUATIONS = frozenset(("on", "during", "at", "in", "over", "outside", "between"))
#: words after a verb that stand for the item's label ("never edit it", "never print its values")
_LABEL_REFERENCES = frozenset("it its them their this these that those values value contents content the".split())
#: words before a task noun that do not narrow it ("individual lint commands", "raw git commands")
_NEUTRAL_BEFORE = frozenset("individual separate raw direct plain bare manual normal regular usual standard ad-hoc adhoc".split())
_PREPOSITIONS = {"in": "dir", "under": "dir", "inside": "dir", "within": "dir", "below": "dir", "beneath": "dir",
                 "at": "at", "of": "of", "from": "from", "to": "to", "into": "to", "onto": "to", "on": "on",
                 "with": "with", "via": "with", "using": "with", "through": "with", "like": "like",
                 "including": "like", "for": "for", "against": "on", "over": "on", "by": "by"}
_FILE_NOUNS = frozenset("file files directory directories folder folders dir dirs path paths tree trees mirror mirrors "
                        "copy copies contents content anything everything subdirectories subdirectory subfolders "
                        "module modules".split())
_OTHER_PREPOSITIONS = frozenset("outside beyond across behind through throughout toward towards upon between among around "
                                "past near except besides despite per versus vs anywhere everywhere here there again "
                                "unnecessarily first during".split())
_COMMAND_NOUNS = frozenset("command commands script scripts cli tool invocation invocations call calls target targets "
                           "subcommand subcommands flag flags option options operation operations action actions".split())
_IN_CODE_NOUNS = frozenset("test tests spec specs code codebase source production component components module modules "
                           "file files script scripts function functions class classes typescript javascript python "
                           "rust go zig c++ logic handlers hooks templates".split())
_CONJUNCTIONS = frozenset(("or", "and", "nor", "&", "and/or", "or/and"))
#: words after a comma that turn to what to do instead ("Don't push, just commit")
_CONTRASTS = frozenset(("just", "simply", "only", "merely", "instead", "rather"))
_ALLOWED_PREFIX = frozenset("you please we i also and but so then just claude agents ai important critical note warning may can "
                            "should "
                            "stop immediately pause first instead "
                            "remember always yourself really absolutely strictly".split())


@dataclass
class Obj:
    """Something a rule is about, as written."""

    kind: str  # code | program | path | noun | quote | flag | pronoun | deictic | self | branch | label
    text: str
    #: the preposition before it: dir (in/under) | at | of | from | to | on | with | like | for | by | paren |
    #: outside (outside/beyond: every other path is meant) | ""
    role: str = ""
    #: nouns: what the tables say it can be: {"path": (globs...), "category": name, "content": (phrases...),
    #: "credential": (files, variables), "surface": True, "timeout": True, "program": name}
    meaning: dict[str, Any] = field(default_factory=dict)
    #: the noun before this object's preposition names files ("files under `x`")
    after_file_noun: bool = False
    #: a glob written in parentheses after a noun ("documentation files (*.md)")
    glob: str = ""
    #: the noun before the preposition (`after_file_noun` is False) is not a file: "branches of `x`"
    head: str = ""


@dataclass
class Ordering:
    """"Run X before Y": `first` must run before the action `then` (a git action name or a category)."""

    first: list[Obj]
    then: str  # commit | push | pr | merge
    #: the sentence states it weakly (plain "after changes", or under a condition)
    soft: bool = False
    target: str = ""
    #: the commands are alternatives ("run `git status` or `git branch`"): any one of them will do
    either: bool = False
    #: "after changing `*.sql`, run X": X must run after the last change of these files (`**`: any)
    edits: list[str] = field(default_factory=list)
    #: the step is a tool use, not a command (cf_guidance.policy.steps): "read" or "edit" of the
    #: files `first` names ("Read `docs/a.md` before changing `core/`")
    step: str = ""
    #: the action is an edit of these files (`**`: any) rather than the git action `then`
    then_paths: list[str] = field(default_factory=list)
    #: the step comes "first": before the work of the document, or of the section it is under
    #: (one kind of work, which no edit shows: no check there)
    sectional: bool = False


@dataclass
class Frame:
    modality: str
    cue: str = ""
    #: the modality came from a heading or the sentence introducing a list
    inherited: bool = False
    #: inferred from the project's choice of a tool ("use pnpm"): yields to what the text names
    preference: bool = False
    #: the runner the programs are to run under ("run Python through `uv run`"): a ban on them in
    #: the same sentence ("never bare `python`") leaves the command run that way alone
    runner: str = ""
    actions: list[str] = field(default_factory=list)
    verb: str = ""
    objects: list[Obj] = field(default_factory=list)
    #: what to do instead ("use `yarn typecheck`"): names for the reason
    alternatives: list[Obj] = field(default_factory=list)
    condition: str = ""  # "" | permission | judgment
    condition_text: str = ""
    qualifier: str = ""
    #: words of the qualifier that name an action ("on git commits"): combined, not narrowing
    qualifier_action: str = ""
    targets: list[str] = field(default_factory=list)
    #: remotes a push is about ("never push to `upstream`"), not branches
    remotes: list[str] = field(default_factory=list)
    #: branches a merge rule names as what is merged ("never merge `upstream/main` into main")
    sources: list[str] = field(default_factory=list)
    surfaces: list[str] = field(default_factory=list)
    #: the category a frame is for: "only use `spin` for linting", "any other command to build"
    purpose: str = ""
    #: "any other command", "commands other than": the frame bans everything of `purpose` but its objects
    other: bool = False
    ordering: Ordering | None = None
    #: "you never invoke `x`": a description of practice, softer than an order
    indicative: bool = False
    #: requirement forms: "branch names must start with", "commit as", "sign"; "list": the sentence
    #: introduces the list below ("以下は禁止："), whose items carry its objects (no check of its own)
    requirement: str = ""
    #: the words of the object phrase before its first preposition
    phrase: str = ""
    #: "Don't use `find` in tests": the object is something used in code, not a command to run
    in_code: bool = False
    #: "In `packages/web/`, never edit `src/gen/`": the directory the clause's paths are in
    within: str = ""
    #: "Only edit files in `src/`", "don't touch anything outside `packages/foo`": the paths are the
    #: only ones the action may reach; the rule is about every other path of the project
    confine: bool = False
    #: the verb is not in the action table and was read as a change to the path it names
    #: (`guessed_change`): the reading is a guess, so the rule asks instead of denying
    guessed: bool = False
    #: the token where the frame's cue starts
    start_token: int = 0
    #: verb phrases joined to this one under the same cue ("never start X or run Y")
    more: list["Frame"] = field(default_factory=list)
    #: resolution made this frame's message check (several actions share one verb: "add")
    messaged: bool = False
    #: offset in the block's masked text (for the line)
    start: int = 0
    text: str = ""
    notes: list[str] = field(default_factory=list)


@dataclass
class Context:
    """What a clause inherits from where it stands."""

    modality: str = ""
    cue: str = ""
    #: verbs of the sentence that introduced the list ("Never manually edit auto-generated files:")
    actions: list[str] = field(default_factory=list)
    verb: str = ""
    #: the objects the block's item is about ("`plugins/` — Generated copies ...")
    label: list[Obj] = field(default_factory=list)
    #: objects of the sentences before, for "them", "these tools"
    antecedents: list[Obj] = field(default_factory=list)
    #: objects of the list that follows ("... edit them:" then a list): for pronouns
    following: list[Obj] = field(default_factory=list)
    #: an ordering the heading or intro states ("Before every push:", "After every code change")
    then: str = ""
    soft: bool = False
    #: the heading's ordering holds after a change of these files ("After every code change": `**`)
    edits: list[str] = field(default_factory=list)
    #: the item's ordering is advice ("## When to run `make proto`" over "- after changing `proto/`"): a warning
    advised: bool = False
    item: bool = False
    #: the block is an HTML comment or the first paragraph of the file (generated-file notices)
    header: bool = False
    #: the intro's condition ("ask the user when:") applies to items
    condition: str = ""
    condition_text: str = ""
    #: the clause is a table cell under a label ("| ❌ Forbidden |")
    table: bool = False
    #: the nearest heading's words ("package manager"): a clause that only names a tool is its value
    topic: str = ""
    #: the texts a list's intro requires a form of, and its cue ("Commits MUST:"): the items' forms
    #: are of those texts, said with that force
    texts: list[str] = field(default_factory=list)
    texts_cue: str = ""
    #: the ordering is read from the order of numbered steps alone ("1. ... 3. Commit"): only the
    #: steps that check the work come before the action, not chores ("run the release script")
    steps: bool = False
    #: the intro says to read the items' files first ("Read these first:"): its ordering, without files
    step: Ordering | None = None


# --- table indexes ----------------------------------------------------------------------------


def _words(phrase: str) -> tuple[str, ...]:
    return tuple(phrase.lower().replace("\u2019", "'").split())


@lru_cache(maxsize=None)
def _index(table: str) -> dict[str, list[tuple[tuple[str, ...], Any]]]:
    """First word -> [(words, entry)], longest first, for one of the English phrase tables."""
    pairs: list[tuple[str, Any]] = []
    if table == "cues":
        pairs = [(p, cue) for cue in _cues.CUES for p in cue.phrases]
    elif table == "heading":
        pairs = [(p, cue) for cue in _cues.HEADING_CUES for p in cue.phrases]
        pairs += [(p, cue) for cue in _cues.CUES if cue.modality in (BAN, AVOID) for p in cue.phrases]
    elif table == "actions":
        pairs = [(w, action) for action in _actions.ACTIONS for w in action.words]
    elif table == "unchanged":
        pairs = [(w, entry) for entry in _actions.UNCHANGED for w in entry.words]
    elif table == "file-titles":
        pairs = [(p, cue) for cue in _cues.FILE_TITLES for p in cue.phrases]
    elif table == "adverbs":
        pairs = [(a, a) for a in _markers.ADVERBS]
    elif table == "conditions":
        pairs = [(p, cond) for cond in _markers.CONDITIONS for p in cond.phrases]
    elif table == "examples":
        pairs = [(m, m) for m in _markers.EXAMPLE_MARKERS]
    elif table == "sparing":
        pairs = [(m, m) for m in _markers.SPARING_WORDS]
    elif table == "vcs-places":
        pairs = [(m, m) for m in _markers.VERSION_CONTROL_PLACES]
    elif table == "nouns":
        pairs = _noun_pairs()
    elif table == "nominals":
        pairs = [(p, nominal.verb) for nominal in _markers.NOMINAL_ACTIONS for p in nominal.phrases]
    out: dict[str, list[tuple[tuple[str, ...], Any]]] = {}
    for phrase, entry in pairs:
        words = _words(phrase)
        if words:
            out.setdefault(words[0], []).append((words, entry))
    for key in out:
        out[key].sort(key=lambda pair: -len(pair[0]))
    return out


def _shared_head(tokens: list[Token], k: int, end: int) -> tuple[str, dict[str, Any]] | None:
    """"generated or vendored files": a word before "or"/"and" that, with the head noun of the kind
    of file after it, names a kind of file too ("generated files"): (that phrase, its meaning)."""
    if k + 3 >= end or tokens[k].kind != WORD or tokens[k + 1].low not in ("or", "and"):
        return None
    after = match(tokens, k + 2, "nouns", end)
    if after is None or after[0] - (k + 2) < 2 or after[1][0] != "path":
        return None
    phrase = (tokens[k].low,) + tuple(t.low for t in tokens[k + 3 : after[0]])
    meaning = {kind: value for words, (kind, value) in _index("nouns").get(tokens[k].low, []) if words == phrase}
    return (" ".join(phrase), meaning) if "path" in meaning else None


def _noun_pairs() -> list[tuple[str, Any]]:
    pairs: list[tuple[str, Any]] = []
    for noun in _nouns.PATH_NOUNS:
        # "a migration file", "any generated file": the tables list a kind of file in the plural; one of that kind said
        # generically is the kind too (a singular without such a word means one file the context knows: "read .md file")
        words = list(noun.words) + [f"{det} {one}" for w in noun.words if (one := _singular(w)) and one not in noun.words
                                    for det in _GENERIC_ONE]
        pairs += [(w, ("path", noun.globs)) for w in words]
        if noun.conventional:
            pairs += [(w, ("conventional", True)) for w in words]
    pairs += [(w, ("self", True)) for w in _nouns.SELF_NOUNS]
    for content in _nouns.CONTENT_NOUNS:
        pairs += [(w, ("content", content.phrases)) for w in content.words]
    for credential in _nouns.CREDENTIALS:
        pairs += [(w, ("credential", (credential.files, credential.variables))) for w in credential.words]
    for category in _categories.CATEGORIES:
        pairs += [(w, ("category", category.name)) for w in category.words]
    for tool in _programs.TOOL_NAMES:
        pairs += [(w, ("program", tool.program)) for w in tool.names]
    # "the master branch" is `master`, "the default branch" `main`
    pairs += [(w, ("branch", "main" if "main" in w or "default" in w or "trunk" in w
                   else next(x for x in w.split() if x not in ("the", "branch"))))
              for w in _nouns.BRANCH_NOUNS]
    pairs += [(w, ("surface", w)) for w in _nouns.SURFACES]
    for thing in _things.THINGS:
        pairs += [(w, ("thing", thing.name)) for w in thing.words]
    pairs += [(w, ("pronoun", w)) for w in _markers.PRONOUNS]
    pairs += [(w, ("deictic", w)) for w in _markers.DEICTICS]
    pairs += [(w, ("timeout", True)) for w in ("timeout", "timeouts", "a timeout", "time limit")]
    pairs += [(w, ("hooks", True)) for w in _nouns.HOOK_NOUNS]
    # last: "tests" is first of all the task; a kind of file only where a sentence places it
    pairs += [(w, ("placed", noun.globs)) for noun in _nouns.PATH_NOUNS for w in noun.placed]
    pairs += [(w, ("other", True)) for w in ("other command", "other commands", "any other command", "any other commands",
                                              "other tools", "other tool", "alternatives", "another command",
                                              "commands other than", "anything else", "other means")]
    return pairs


_GENERIC_ONE = ("a", "an", "any", "every", "each")


def _singular(phrase: str) -> str:
    """"generated file" for "generated files" (only phrases of more than one word ending in a file
    noun: "snapshots" or "migrations" alone stay as written)."""
    for plural, one in ((" files", " file"), (" directories", " directory"), (" folders", " folder")):
        if phrase.endswith(plural):
            return phrase[: -len(plural)] + one
    return ""


def match(tokens: list[Token], i: int, table: str, end: int | None = None) -> tuple[int, Any] | None:
    """The longest phrase of `table` starting at token `i`: (end index, entry), or None."""
    if i >= len(tokens):
        return None
    tok = tokens[i]
    if tok.kind not in (WORD, SYMBOL):
        return None
    stop = len(tokens) if end is None else end
    candidates = _index(table).get(tok.low)
    if not candidates:
        return None
    for words, entry in candidates:
        j = i + len(words)
        if j > stop:
            continue
        if all(tokens[i + k].kind in (WORD, SYMBOL) and tokens[i + k].low == words[k] for k in range(len(words))):
            return j, entry
    return None


def skip_adverbs(tokens: list[Token], i: int, end: int) -> int:
    """Past the adverbs at `i` ("directly", "under any circumstances"), set off by commas too
    ("Never, under any circumstances, commit ...")."""
    first_words = _index("adverbs")
    while i < end:
        found = match(tokens, i, "adverbs", end) if tokens[i].low in first_words else None
        if found is None:
            aside = _aside_end(tokens, i, end)
            if aside == i:
                break
            i = aside
        else:
            i = found[0]
    return i


#: what sets an aside off ("Do not, under any circumstances, run `x`", "Never — ever — push")
_ASIDE_MARKS = frozenset((",", "—", "–"))


def _aside_end(tokens: list[Token], i: int, end: int) -> int:
    """Where an aside of adverbs set off by commas or dashes at `i` ends (", under any
    circumstances,"), else `i`. Unclosed only for "ever" before a verb ("Never, ever push"): after
    a verb a comma and an adverb may start the next clause ("Don't push, just commit")."""
    if not (i + 1 < end and tokens[i].kind == PUNCT and tokens[i].text in _ASIDE_MARKS):
        return i
    m = i + 1
    while m < end and (found := match(tokens, m, "adverbs", end)) is not None:
        m = found[0]
    if m == i + 1 or m >= end:
        return i
    if tokens[m].kind == PUNCT and tokens[m].text == tokens[i].text:
        return m + 1
    if m == i + 2 and tokens[i + 1].low == "ever" and match(tokens, m, "actions", end) is not None:
        return m
    return i


def action_at(tokens: list[Token], i: int, end: int) -> tuple[int, list[str], str] | None:
    """Verbs at `i` ("delete or modify"): (end, action names, surface words)."""
    found = match(tokens, i, "actions", end)
    names: list[str] = []
    surface: list[str] = []
    if found is None:
        tok = tokens[i] if i < end else None
        # "edit/modify": verbs joined by a slash in one word
        if tok is not None and tok.kind == WORD and "/" in tok.low:
            parts = tok.low.split("/")
            entries = [_action_named(part) for part in parts]
            if all(entries):
                return i + 1, [e for part in parts for e in _action_names(part)], tok.low
        return None
    j, _ = found
    phrase = " ".join(t.low for t in tokens[i:j])
    names.extend(_action_names(phrase))
    surface.append(phrase)
    series = False
    while j < end:
        k = j
        if tokens[k].kind == PUNCT and tokens[k].text in (",", "/"):
            series = series or tokens[k].text == ","
            k += 1
        conjunction = k < end and tokens[k].kind == WORD and tokens[k].low in _CONJUNCTIONS
        if conjunction:
            k += 1
        if k < end and tokens[k].low == "otherwise":
            k += 1
        if k == j or not conjunction and k < end and tokens[k].low in _CONTRASTS:
            break  # "Don't push, just commit": what follows is what to do instead, not one more verb
        k = skip_adverbs(tokens, k, end)
        more = match(tokens, k, "actions", end)
        if more is None and series and k < end and _unknown_verb_in_series(tokens, k, end, last=conjunction):
            # "start, stop, restart, or kill dev servers": a verb the tables do not know, inside a
            # series of verbs, is passed over; the known ones and the object still count
            j = k + 1
            continue
        if more is None:
            break
        phrase = " ".join(t.low for t in tokens[k : more[0]])
        names.extend(n for n in _action_names(phrase) if n not in names)
        surface.append(phrase)
        j = more[0]
    return j, names, " or ".join(surface)


def _unknown_verb_in_series(tokens: list[Token], k: int, end: int, *, last: bool) -> bool:
    """A plain word at `k` that is one more item of a comma series of verbs: followed by a comma or
    a conjunction, or (`last`, after "or"/"and") by the object."""
    tok = tokens[k]
    if tok.kind != WORD or not tok.low.isalpha() or tok.low in _DETERMINERS or tok.low in _STOPS or tok.low in _PREPOSITIONS \
            or match(tokens, k, "nouns", end) is not None:
        return False
    nxt = tokens[k + 1] if k + 1 < end else None
    if nxt is not None and (nxt.kind == PUNCT and nxt.text == "," or nxt.kind == WORD and nxt.low in _CONJUNCTIONS):
        return True
    return last and nxt is not None and nxt.kind in (WORD, CODE)


@lru_cache(maxsize=None)
def _action_names(phrase: str) -> tuple[str, ...]:
    return tuple(a.name for a in _actions.ACTIONS if phrase in a.words)


def _action_named(word: str) -> bool:
    return bool(_action_names(word))


# --- English clauses ---------------------------------------------------------------------------


def find_cues(tokens: list[Token]) -> list[tuple[int, int, str, str]]:
    """(start, end, modality, cue words) of every cue, left to right, overlaps resolved."""
    out: list[tuple[int, int, str, str]] = []
    first_words = _index("cues")
    i = 0
    while i < len(tokens):
        if tokens[i].low not in first_words:
            i += 1
            continue
        found = match(tokens, i, "cues")
        if found is None:
            i += 1
            continue
        j, cue = found
        words = " ".join(t.low for t in tokens[i:j])
        out.append((i, j, cue.modality, words))
        i = j
    # "make sure to never force push", "always do not": the ban is what counts
    kept: list[tuple[int, int, str, str]] = []
    for k, cue in enumerate(out):
        if cue[2] in (REQUIRE, ONLY) and k + 1 < len(out):
            after = skip_adverbs(tokens, cue[1], len(tokens))
            if out[k + 1][0] == after and out[k + 1][2] in (BAN, AVOID):
                continue
        kept.append(cue)
    return kept


#: the require phrases of a hard rule (lexicon.cues, `hard`: "must", "is required", "mandatory")
_HARD = frozenset(" ".join(_words(p)) for cue in _cues.CUES if cue.hard for p in cue.phrases)


def hard(cues: list[tuple[int, int, str, str]]) -> bool:
    """Whether a clause states its ordering as a hard one: a hard require cue ("X must pass before
    committing", "is mandatory"); "only push after X" and "never commit without X" are read as
    hard where they are read. An ordering said otherwise ("Always run X before committing", "Run X
    before committing", "make sure to run X") is practice the agent is reminded of: a warning, as
    the text's strength says. Neither "only" nor a ban elsewhere in the clause hardens it ("if only
    docs changed, run X"; "put `bin/` on PATH (else the linter can't find it)" says why)."""
    return any(c[2] == REQUIRE and c[3] in _HARD for c in cues)


def subject_allows(tokens: list[Token], start: int) -> tuple[bool, str]:
    """Whether the words before a cue leave it an instruction, and the subject ("you", "we" or "")."""
    prefix = [t for t in tokens[:start] if t.kind in (WORD, CODE, QUOTE)]
    if not prefix:
        return True, ""
    last_punct = max((k for k, t in enumerate(tokens[:start]) if t.kind == PUNCT and t.text in (",", ":", "(", ")")), default=-1)
    words_after = [t for t in tokens[last_punct + 1 : start] if t.kind in (WORD, CODE, QUOTE)]
    if last_punct != -1 and not words_after:
        return True, ""  # "Before committing, make sure ..." / "**Label**: never ..."
    if all(t.kind == WORD and t.low in _ALLOWED_PREFIX for t in words_after):
        subject = next((t.low for t in words_after if t.low in ("you", "we")), "")
        return True, subject
    if words_after[-1].kind == WORD and words_after[-1].low in ("but", "yet"):
        # "Commit your work but do not push", "AI agents commit but never push": an instruction
        # (or the agent's practice) before "but": the ban after it is the agent's too
        first = next(k for k in range(last_punct + 1, start) if tokens[k].kind in (WORD, CODE, QUOTE))
        if action_at(tokens, first, start) is not None or tokens[first].low in _markers.AGENT_SUBJECTS \
                or tokens[first].low in ("ai", "agents"):
            return True, ""
    # "Make sure to never ...", "Please always ...": a cue of its own before the ban
    k = last_punct + 1
    while k < start:
        found = match(tokens, k, "cues", start)
        if found is None or found[1].modality not in (REQUIRE, ONLY):
            if tokens[k].kind == WORD and tokens[k].low in _ALLOWED_PREFIX:
                k += 1
                continue
            return False, ""
        k = found[0]
    return True, ""


def read_objects(tokens: list[Token], i: int, end: int) -> tuple[list[Obj], int, list[str]]:
    """The object phrase from `i`: its objects, where it stopped, and notes."""
    objects: list[Obj] = []
    notes: list[str] = []
    role = ""
    file_noun = False
    head = ""
    unknown_run = 0
    k = i
    while k < end:
        tok = tokens[k]
        if tok.kind == PUNCT:
            if tok.text == "(":
                close = next((m for m in range(k + 1, end) if tokens[m].kind == PUNCT and tokens[m].text == ")"), end)
                inner = tokens[k + 1 : close]
                if inner and match(inner, 0, "examples") is not None:
                    notes.append(f"examples in parentheses are not objects: {join(inner)}")
                elif inner and (inner[0].low in _CONJUNCTIONS or inner[0].low == "not" or any(t.low in _STOPS for t in inner)):
                    break  # "(not manual git tag commands)" / "(slow, avoid unless necessary)": a clause of its own
                elif inner and objects and inner[0].kind == WORD and (inner[0].low in _markers.ALTERNATIVE_ASIDES or any(
                        t.kind == WORD and t.low == "instead" for t in inner)):
                    # "`secrets.yaml` (commit `secrets.sample.yaml` instead)": what to use in its place
                    objects += [Obj("code" if t.kind == CODE else "path", t.text, "instead") for t in inner
                                if t.kind == CODE or (t.kind == WORD and _globlike(t.text))]
                    notes.append(f"the aside names the alternative: {join(inner)}")
                elif objects and objects[-1].kind == "noun" and "category" in objects[-1].meaning and any(t.kind == CODE for t in inner):
                    # "the dev server (`pnpm dev`)": the command the noun stands for here
                    objects[-1].meaning["commands"] = [t.text for t in inner if t.kind == CODE]
                else:
                    m = 0
                    while m < len(inner):
                        t = inner[m]
                        m += 1
                        if t.kind == WORD and t.low in _programs.KNOWN_PROGRAMS and t.text[:1].islower():
                            # "(prisma migrate)", "(npm install/uninstall)": commands written as words, not the program
                            command = _bare_command(inner, m - 1, len(inner))
                            nxt = inner[m] if m < len(inner) else None
                            if len(command) == 1 and nxt is not None and nxt.kind == WORD and "/" in nxt.low \
                                    and all(part.isalpha() for part in nxt.low.split("/")):
                                objects += [Obj("code", f"{t.low} {part}", "paren", {"bare": True}) for part in nxt.low.split("/")]
                                m += 1
                            elif len(command) > 1:
                                rest = inner[m - 1 + len(command)] if m - 1 + len(command) < len(inner) else None
                                if rest is None or rest.kind == PUNCT or rest.low in _CONJUNCTIONS:
                                    objects.append(Obj("code", " ".join(command), "paren", {"bare": True}))
                                # else "(npm run dev:*)": the words stop short of the command, which is not named
                                m += len(command) - 1
                            else:
                                objects.append(Obj("program", t.low, "paren"))
                        elif t.kind == WORD and t.text.isupper() and t.low in _nouns.FILE_EXTENSIONS and (head or (
                                objects and objects[-1].role != "paren")):
                            # "binary assets (PSD, MOV, ZIP)": the endings of the kind of file before them
                            objects += [Obj("path", f"*.{u.low}", "paren") for u in inner
                                        if u.kind == WORD and u.text.isupper() and u.low in _nouns.FILE_EXTENSIONS]
                            break
                        elif t.kind == CODE or (t.kind == WORD and _globlike(t.text)):
                            if objects and objects[-1].kind == "noun" and not objects[-1].glob and _globlike(t.text) \
                                    and sum(1 for u in inner if u.kind in (CODE, WORD) and _globlike(u.text)) == 1:
                                # "documentation files (\*.md)": the noun's own glob; two or more are a list of kinds
                                objects[-1].glob = t.text
                            else:
                                # "the underlying tools (`tsc`, `eslint`)": a list and nothing else names what the
                                # words before it do not (resolve reads such spans as the objects)
                                listed = all(u.kind == CODE or u.kind == PUNCT and u.text in (",", "/") or
                                             u.kind == WORD and (u.low in _CONJUNCTIONS or u.low == "etc") for u in inner)
                                objects.append(Obj("code" if t.kind == CODE else "path", t.text, "paren",
                                                   {"listed": True} if listed else {}))
                k = close + 1
                continue
            if tok.text in (",", "/", "&"):
                nxt = tokens[k + 1] if k + 1 < end else None
                if nxt is not None and (nxt.kind in (CODE, QUOTE) or (nxt.kind == WORD and (
                        nxt.low in _CONJUNCTIONS or nxt.low in _DETERMINERS or match(tokens, k + 1, "nouns", end) is not None
                        or (nxt.low in _programs.KNOWN_PROGRAMS and nxt.text[:1].islower())))):
                    k += 1
                    continue
                break
            if tok.text == ":" and k + 1 < end and tokens[k + 1].kind == CODE and (
                    objects and objects[-1].kind == "pronoun" or k == i and not objects):
                # "never commit these: `a`", "**Never commit:** `a`, `b`": the colon hands the verb its objects
                k += 1
                continue
            if tok.text == ":" and k == i and not objects and k + 1 < end and (
                    match(tokens, k + 1, "nouns", end) is not None or tokens[k + 1].kind == WORD):
                # "Never access: environment files (`.env*`)", "NEVER commit: ROM files, `.wasm` files":
                # the colon hands the verb what follows it (words the reader does not know are an
                # unread object, never the bare verb)
                k += 1
                continue
            if tok.text == ":" and k + 1 < end and tokens[k + 1].kind == CODE and objects and objects[-1].kind == "noun" \
                    and "path" in objects[-1].meaning and not objects[-1].glob:
                # "never edit generated files: `src/gen/`, `api/types.ts`": the paths the noun means here
                objects[-1].meaning = dict(objects[-1].meaning, named=True)
                k += 1
                continue
            break
        if tok.kind == CODE:
            obj = Obj("code", tok.text, role, after_file_noun=file_noun, head=head)
            nxt = tokens[k + 1] if k + 1 < end else None
            split = _split_command(tokens, k, end)
            if split:
                # "the `hg` push command", "`kubectl` delete on prod": the program in backticks and its
                # subcommand in words name one command, never the whole program
                objects.append(Obj("code", " ".join(split), role, after_file_noun=file_noun, head=head))
                unknown_run = 0
                k += len(split)
                continue
            if nxt is not None and nxt.kind == WORD and nxt.low in ("'s", "’s"):
                # "`site.yml`'s `nav:` section": a part of the file; the file is the object
                objects.append(obj)
                k += 3 if k + 2 < end and tokens[k + 2].kind == CODE else 2
                continue
            if nxt is not None and nxt.kind == WORD and nxt.low.replace("-", "").isalpha() and nxt.low not in _STOPS \
                    and nxt.low not in _CONJUNCTIONS \
                    and nxt.low not in _PREPOSITIONS and nxt.low not in _DETERMINERS and nxt.low != "not" \
                    and match(tokens, k + 1, "adverbs", end) is None and match(tokens, k + 1, "nouns", end) is None \
                    and match(tokens, k + 1, "actions", end) is None:
                if nxt.low in _FILE_NOUNS:
                    obj.after_file_noun = True
                elif nxt.low in _COMMAND_NOUNS or nxt.low in _OTHER_PREPOSITIONS or nxt.low.endswith("ly") or nxt.low == "etc":
                    pass  # "`npm run` commands", "`x` outside the venv", "`x` locally", "`x` etc": the span is the object
                else:
                    # "`console.log` statements", "`service` objects": the span names a kind of thing
                    obj.role, obj.head = "attr", nxt.low
            # "`src/{leveldb,secp256k1}`": shell brace alternatives name each path, not all of `src/`
            objects += [replace(obj, text=text) for text in brace_alternatives(tok.text)]
            unknown_run = 0
            k += 1
            continue
        if tok.kind == QUOTE:
            objects.append(Obj("quote", tok.low, role))
            k += 1
            continue
        if tok.kind != WORD:
            k += 1
            continue
        low = tok.low
        if low in _STOPS or low == "not" and objects:
            break
        named = _named_directory(tokens, k, end)
        if named:
            # "the migrations folder", "any vendor directory": a directory named in words, wherever it is
            objects.append(Obj("path", named + "/", role, meaning={"anywhere": True}, after_file_noun=True))
            unknown_run = 0
            k += 2 if low == named else 3
            continue
        if match(tokens, k, "examples", end) is not None:
            notes.append(f"stops at an example marker: {tok.text}")
            break
        if objects and low in ("silently", "quietly") and match(tokens, k, "conditions", end) is not None:
            break  # "... block silently": a condition, read by the caller
        if low in ("either", "any", "all", "each", "both", "none", "one", "some") and k + 1 < end and tokens[k + 1].low == "of":
            k += 2  # "either of the following": the following
            continue
        names = low.split("/")
        if len(names) > 1 and all(_BRANCH_NAMES.get(name) for name in names):
            # "main/master": each branch (the word "branch" after it is part of the name)
            objects += [Obj("branch", name, role, meaning={"branch": _BRANCH_NAMES[name]}) for name in names]
            k += 2 if k + 1 < end and tokens[k + 1].kind == WORD and tokens[k + 1].low in ("branch", "branches") else 1
            continue
        if low in _CONJUNCTIONS and objects and k + 1 < end and tokens[k + 1].kind == WORD \
                and action_at(tokens, k + 1, end) is not None and match(tokens, k + 1, "nouns", end) is None:
            break  # "create branches or make commits": a further verb phrase, read by the caller (_read_joined)
        if low in _CONJUNCTIONS or low in ("either", "neither", "otherwise", "also", "even"):
            k += 1
            continue
        if low == "such" and k + 1 < end and tokens[k + 1].low == "as":
            role = "like"
            k += 2
            continue
        multiword = match(tokens, k, "nouns", end)
        if low in _programs.KNOWN_PROGRAMS and tok.text[:1].islower() and len(_bare_command(tokens, k, end)) > 1 \
                and (multiword is None or multiword[0] - k < 2
                     or multiword[1][0] == "program" and len(_bare_command(tokens, k, end)) > multiword[0] - k):
            # "docker compose down -v": a program named in two words and its subcommand, not the whole program
            command = _bare_command(tokens, k, end)
            objects.append(Obj("code", " ".join(command), role))  # "npm install" written without backticks
            k += len(command)
            continue
        shared = _shared_head(tokens, k, end)
        if shared is not None:
            objects.append(Obj("noun", shared[0], role, meaning=shared[1], after_file_noun=file_noun))
            k += 2  # "generated or vendored files": the second is read next
            continue
        found = match(tokens, k, "nouns", end)
        if found is not None and found[0] - k == 1 and low in _programs.KNOWN_PROGRAMS and tok.text[:1].islower() \
                and found[1][0] in ("hooks", "program", "category"):
            found = None  # "run pre-commit", "use git": the program, not the noun
        if found is None and low in _DETERMINERS:
            k += 1
            continue
        if found is not None:
            j, (kind, value) = found
            # a noun phrase may be several things ("secrets": credentials or env vars); all are kept
            meaning: dict[str, Any] = {}
            phrase = " ".join(t.low for t in tokens[k:j])
            for other_words, (other_kind, other_value) in _index("nouns").get(tokens[k].low, []):
                if " ".join(other_words) == phrase:
                    meaning.setdefault(other_kind, other_value)
            if kind == "pronoun" and role and role not in ("like",) and objects:
                break  # "... `x` on them": refers back; read as a qualifier that does not narrow
            before = tokens[k - 1] if k > i else None
            if kind in ("category", "thing") and before is not None and before.kind == WORD and before.low not in _NEUTRAL_BEFORE \
                    and before.low not in _neutral_before(kind, value) and before.low not in _DETERMINERS and before.low not in _CONJUNCTIONS and before.low not in _PREPOSITIONS \
                    and match(tokens, k - 1, "adverbs", end) is None and action_at(tokens, k - 1, end) is None:
                meaning["qualified"] = before.low  # "remote git operations": some of them, which the word decides
            if kind in ("pronoun", "deictic", "self", "branch"):
                objects.append(Obj(kind, phrase, role, meaning=meaning))
            else:
                objects.append(Obj("noun", phrase, role, meaning=meaning, after_file_noun=file_noun))
            if kind == "path":
                file_noun = True
            unknown_run = 0
            k = j
            continue
        if low in _OUTSIDE_WORDS and _path_follows(tokens, k + 1, end):
            # "anything outside `packages/foo`": every path but that one (a confinement, never the path itself)
            role = "outside"
            k += 2 if k + 1 < end and tokens[k + 1].low == "of" else 1
            continue
        if low == "per" and objects:
            break  # "per file", "per iteration": how often, read as a qualifier
        if low in _PREPOSITIONS:
            if low == "to" and k + 1 < end and match(tokens, k + 1, "actions", end) is not None:
                break  # "to build", "to create releases": a purpose, read by the caller
            if objects and _qualifier_follows(tokens, k + 1, end, low):
                break  # "in watch mode", "against production", "in tests": read as a qualifier
            if low == "for" and k + 1 < end and match(tokens, k + 1, "nouns", end) is None and tokens[k + 1].kind != CODE:
                break
            role = _PREPOSITIONS[low]
            if role == "like" and k + 1 < end and tokens[k + 1].low == "as":
                k += 1
            k += 1
            continue
        if low in _FILE_NOUNS:
            file_noun = True
            head = ""
            k += 1
            continue
        if low in _programs.KNOWN_PROGRAMS and tok.text[:1].islower() or low in _programs.KNOWN_PROGRAMS and low.isupper():
            if _kind_of_commands(tokens, i, k, end):
                # "any other destructive git command": some of git's commands, which ones the words do not say
                notes.append(f"'{join(tokens[max(i, k - 2):k + 2])}' is a kind of {low} command, not {low} itself")
                objects.append(Obj("program", low, role, meaning={"subset": True}))
                k += 2
                continue
            command = _bare_command(tokens, k, end)
            if len(command) > 1:
                objects.append(Obj("code", " ".join(command), role))  # "npm install" written without backticks
                k += len(command)
            else:
                objects.append(Obj("program", low, role))
                k += 1
            continue
        if _pathlike(tok.text):
            objects.append(Obj("path", tok.text, role, after_file_noun=file_noun, head=head))
            k += 1
            continue
        if tok.text.startswith("--") and len(tok.text) > 3:
            objects.append(Obj("flag", tok.text, role))
            k += 1
            continue
        if objects and objects[-1].kind == "program" and k + 1 < end and tokens[k + 1].low in ("command", "commands", "cli") \
                and tok.text[:1].islower() and low.replace("-", "").isalnum() and tokens[k - 1].low in _CONJUNCTIONS | {","}:
            # "pytest, python, or airflow commands": a program of the list, named by its commands
            objects.append(Obj("program", low, role))
            k += 2
            continue
        if match(tokens, k, "actions", end) is not None and (objects or (k > i + 1 and tokens[k - 1].low in ("or", "and"))):
            if k > i and tokens[k - 1].kind == WORD and tokens[k - 1].low in _CONJUNCTIONS:
                k -= 1  # the conjunction joins a second verb phrase ("... or run builds")
            break  # "... `x` and fix any issues": a new verb
        unknown_run += 1
        head = low
        if file_noun and role:
            file_noun = False
        if unknown_run > 4:
            notes.append("object phrase too long; stopped")
            break
        k += 1
    return objects, k, notes


#: words after a name that make it a directory's ("the migrations folder")
_DIRECTORY_WORDS = frozenset(("folder", "folders", "directory", "directories", "dir", "dirs", "subdirectory", "subfolder"))


def _named_directory(tokens: list[Token], k: int, end: int) -> str:
    """"the migrations folder", "the `gen` directory" written without backticks: the directory's
    name, when the word at `k` (after a determiner) is a name followed by a directory word and not
    a word that says which directory (lexicon markers.NOT_DIRECTORY_NAMES: "the root folder", "the
    same directory") or a kind of file the tables know ("the build folder"); "" otherwise."""
    if tokens[k].low in _DETERMINERS:
        k += 1
    if k + 1 >= end or tokens[k].kind != WORD or tokens[k + 1].kind != WORD or tokens[k + 1].low not in _DIRECTORY_WORDS:
        return ""
    name = tokens[k].text
    if not name[:1].isalnum() or not all(c.isalnum() or c in "_-." for c in name) or not name.isascii() \
            or name.lower() in _markers.NOT_DIRECTORY_NAMES or name.lower() in _DETERMINERS or name.lower() in _STOPS:
        return ""
    found = match(tokens, k, "nouns", end)
    if found is not None and found[0] >= k + 2 and found[1][0] == "path":
        return ""  # "the build folder": a kind of file the nouns table knows, with its own globs
    return name


#: words before a path that mean every path but it ("outside `src/`", "beyond `packages/foo`")
_OUTSIDE_WORDS = frozenset(("outside", "beyond"))


def _path_follows(tokens: list[Token], k: int, end: int) -> bool:
    """A path (a span or a path written plainly) at `k`, after an optional "of" / "the"."""
    while k < end and tokens[k].kind == WORD and tokens[k].low in ("of", "the"):
        k += 1
    return k < end and (tokens[k].kind == CODE and _pathlike(tokens[k].text.rstrip("/") + "/")
                        or tokens[k].kind == WORD and _pathlike(tokens[k].text) and "/" in tokens[k].text)


def _kind_of_commands(tokens: list[Token], i: int, k: int, end: int) -> bool:
    """A program word between a describing word and "command(s)" ("other destructive git commands",
    "remote git operations")."""
    if not (k + 1 < end and tokens[k + 1].kind == WORD and tokens[k + 1].low in _COMMAND_NOUNS | {"operation", "operations"}):
        return False
    before = tokens[k - 1] if k > i else None
    if before is not None and before.low in ("other", "more", "further", "additional"):
        return True
    return before is not None and before.kind == WORD and before.low not in _DETERMINERS and before.low not in _CONJUNCTIONS \
        and before.low not in _PREPOSITIONS and before.low not in _STOPS and before.low != "any"


def _command_verb(tokens: list[Token], k: int, stop: int, end: int) -> bool:
    """A verb phrase that is a program and its subcommand ("npm install", "pip install") with no object
    after it: the end, an aside, a list of further commands. The command itself is what is named
    ("Never npm install (use pnpm)"), not installing what the aside says ("never npm install
    packages globally" keeps the verb reading)."""
    if tokens[k].kind != WORD or tokens[k].low not in _programs.KNOWN_PROGRAMS:
        return False
    return stop >= end or tokens[stop].kind == PUNCT or bool(_FLAG.match(tokens[stop].text))


def _bare_command(tokens: list[Token], k: int, end: int) -> list[str]:
    """`npm install` written as plain words: a known program and the subcommand words after it
    (`mix ecto.drop`, `php artisan migrate:fresh`, `rails db:drop`: dots and colons are part of a
    task's name; a runner such as `php` or `bundle exec` may name a second program)."""
    words = [tokens[k].low]
    m = k + 1
    while m < end and len(words) < 4 and tokens[m].kind == WORD and tokens[m].text[:1].islower() \
            and tokens[m].low.replace("-", "").replace(":", "").replace(".", "").replace("_", "").isalnum() \
            and not tokens[m].low.endswith(".") and tokens[m].low not in _STOPS \
            and tokens[m].low not in _DETERMINERS and tokens[m].low not in _PREPOSITIONS and tokens[m].low not in _CONJUNCTIONS \
            and (tokens[m].low not in _programs.KNOWN_PROGRAMS or (len(words) == 1 and words[0] in _programs.RUNNERS)) \
            and match(tokens, m, "adverbs", end) is None \
            and not _thing_noun(tokens, m, end) and tokens[m].low not in _FILE_NOUNS and tokens[m].low not in _COMMAND_NOUNS:
        words.append(tokens[m].low)
        m += 1
    # "git push --force", "git reset --hard": the flags that follow are part of what is named
    while len(words) > 1 and m < end and tokens[m].kind == WORD and _FLAG.match(tokens[m].text):
        words.append(tokens[m].text)
        m += 1
    return words


_FLAG = re.compile(r"--?[A-Za-z][\w-]*$")


def _split_command(tokens: list[Token], k: int, end: int) -> list[str]:
    """A program alone in backticks and the subcommand written after it as words (`git` push,
    `terraform` apply): the command's words, or [] when the span stands alone (`npm` directly,
    `pytest` output, `git` hooks). Only a known program, lower case as typed, and one of the
    subcommand words (lexicon programs.SUBCOMMAND_WORDS, SPLIT_COMMAND_EXAMPLES)."""
    text = tokens[k].text
    nxt = tokens[k + 1] if k + 1 < end else None
    if nxt is None or nxt.kind != WORD or text not in _programs.KNOWN_PROGRAMS or text in _programs.RUNNERS \
            or nxt.low not in _programs.SUBCOMMAND_WORDS:
        return []
    words = _bare_command(tokens, k, end)
    return words if len(words) > 1 else []


def _english_verb(tokens: list[Token], k: int, end: int) -> bool:
    """`tokens[k]`, where a rule's verb stands, is an English verb that also names a program
    (lexicon programs.VERB_PROGRAMS): "Don't mix tabs and spaces" runs no `mix`, while a flag, a
    task or a subcommand after the word makes it the command ("Never make install", "Never mix
    ecto.reset"); so does a code span or the clause's end ("Never cat `.env`", "Don't use make")."""
    if tokens[k].low not in _programs.VERB_PROGRAMS or not tokens[k].text[:1].islower():
        return False
    nxt = tokens[k + 1] if k + 1 < end else None
    if nxt is None or nxt.kind != WORD or _FLAG.match(nxt.text) or any(c in nxt.low for c in ".:/") \
            or any(c.isdigit() for c in nxt.low):
        return False
    after = tokens[k + 2] if k + 2 < end else None
    return nxt.low not in _programs.SUBCOMMAND_WORDS or (after is not None and after.kind == WORD and after.low in _DETERMINERS)


def _thing_noun(tokens: list[Token], m: int, end: int) -> bool:
    """A noun that is not a subcommand: "npm credentials", "git hooks", "these files"."""
    found = match(tokens, m, "nouns", end)
    if found is None:
        return False
    return found[1][0] not in ("surface", "category", "branch", "program")


def _qualifier_follows(tokens: list[Token], i: int, end: int, preposition: str) -> bool:
    """After a preposition that follows an object: unknown words (a situation), not another object."""
    k = i
    while k < end and tokens[k].kind == WORD and tokens[k].low in _DETERMINERS:
        k += 1
    if k >= end:
        return False
    tok = tokens[k]
    if tok.kind in (CODE, QUOTE):
        return False
    if tok.kind != WORD:
        return False
    if preposition in ("in", "inside", "within") and (tok.low in _IN_CODE_NOUNS or (
            k + 1 < end and tokens[k + 1].kind == WORD and tokens[k + 1].low in _IN_CODE_NOUNS)):
        return True
    if match(tokens, k, "nouns", end) is not None or tok.low in _FILE_NOUNS or _pathlike(tok.text):
        return False
    if tok.low in _programs.KNOWN_PROGRAMS:
        return False
    return True


#: dotfiles prose names without backticks (".env files", "the .DS_Store files"), not ".NET"
_DOTFILE_STEMS = frozenset([stem for stem, _ in _nouns.FILE_FAMILIES] + [".DS_Store", ".env.local", ".envrc"])


def _pathlike(word: str) -> bool:
    """A path written without backticks: `docs/_CLAUDE.md`, `./x`, `src/`, `.env`; not "read/write"
    or "Authentication/permission" (words joined by a slash)."""
    if word.startswith(("http://", "https://")) or word.endswith((".", ",")):
        return False
    if "/" in word and any(c.isalpha() for c in word) and " " not in word:
        last = word.rstrip("/").rsplit("/", 1)[-1]
        return word.startswith(("./", "../", "~/", "/", ".")) or word.endswith("/") or (
            "." in last and last.rsplit(".", 1)[1].isalpha()) or any(c in word for c in "_*")
    if word.startswith(".") and (word[1:].lower() in _nouns.FILE_EXTENSIONS or word in _DOTFILE_STEMS):
        return True  # ".pem files", ".env or .pem files": a kind of file, a dotfile
    stem, _, extension = word.rpartition(".")
    return bool(stem) and extension.isalpha() and 1 <= len(extension) <= 5 and word[0].isalnum() and extension.lower() not in ("e", "g", "i")


_BRACES = re.compile(r"\{([^{}\s]*,[^{}\s]*)\}")


def brace_alternatives(text: str) -> list[str]:
    """The texts a span's shell brace groups stand for (`src/{a,b}.ts`: `src/a.ts`, `src/b.ts`), or
    the span itself: a command (it has spaces) or a placeholder without a comma (`{name}`) stays whole."""
    found = _BRACES.search(text)
    if found is None or any(c.isspace() for c in text):
        return [text]
    return [alt for part in found.group(1).split(",")
            for alt in brace_alternatives(text[: found.start()] + part + text[found.end():])]


def _globlike(word: str) -> bool:
    return ("*" in word or "/" in word or "." in word) and " " not in word and not word.startswith("http")


def read_conditions(tokens: list[Token], i: int, end: int) -> tuple[str, str]:
    """The strongest condition phrase in tokens[i:end]: (permission | judgment | "", its words)."""
    best = ("", "")
    for k in range(i, end):
        found = match(tokens, k, "conditions", end)
        if found is None:
            continue
        j, cond = found
        words = " ".join(t.low for t in tokens[k:j])
        if cond.kind == "permission":
            return "permission", words
        if not best[0]:
            best = (cond.kind, words)
    # "unless the on-call engineer asked for it", "without the team's approval": a person decides
    for k in range(i, end):
        if tokens[k].kind == WORD and tokens[k].low in ("unless", "without", "until", "when", "if", "once"):
            window = [t.low for t in tokens[k + 1 : min(end, k + 9)] if t.kind == WORD]
            person = any(w in _PERSON_WORDS for w in window[:3])
            if (tokens[k].low in ("unless", "without", "until") and any(w in _PERMISSION_WORDS for w in window)) or (
                    person and any(w in _PERMISSION_WORDS or w in _REVIEW_WORDS for w in window)):
                # "only push when I tell you to", "don't commit until the user has reviewed it"
                return "permission", " ".join([tokens[k].low] + window[:6])
    # "except for:", "except when": the ban has exceptions a pattern cannot list
    for k in range(i, end):
        if tokens[k].kind == WORD and tokens[k].low in ("except", "excepting") and not best[0]:
            return "permission", "except ..."
    if best[0]:
        return best
    # "never commit without changesets", "don't merge unless CI is green": a condition no tool
    # call shows; the ban holds only some of the time, which the agent must judge (warn)
    for k in range(i, end):
        if tokens[k].kind == WORD and tokens[k].low in ("without", "unless", "until") and k + 1 < end \
                and any(t.kind in (WORD, CODE) for t in tokens[k + 1 : end]):
            shown = [t.text if t.kind != CODE else f"`{t.text}`" for t in tokens[k : min(end, k + 7)] if t.kind != PUNCT]
            return "unchecked", " ".join(shown)
    return best


#: a person who decides, named right after "when" / "until" ("when I tell you", "until the user has reviewed it")
_PERSON_WORDS = frozenset(("i", "me", "user", "users", "human", "maintainer", "maintainers", "owner", "reviewer"))
#: a person's review as the go-ahead ("until the user has reviewed them")
_REVIEW_WORDS = frozenset(("reviewed", "reviews", "review", "verified", "verifies", "okays", "okayed", "signs", "signed"))

_PERMISSION_WORDS = frozenset("asked asks ask told tells tell says say approves approved approval approve permission consent "
                              "requests requested request instructs instructed instruction authorizes authorized "
                              "authorization confirms confirmed confirmation sign-off".split())

_THEN_WORDS: dict[str, str] = {
    "commit": "commit", "commits": "commit", "committing": "commit", "commiting": "commit", "you commit": "commit",
    "each commit": "commit", "every commit": "commit", "a commit": "commit", "any commit": "commit",
    "committing changes": "commit", "committing code": "commit", "git commit": "commit", "commiting changes": "commit",
    "creating a commit": "commit", "creating a git commit": "commit", "making a git commit": "commit",
    "push": "push", "pushes": "push", "pushing": "push", "you push": "push", "every push": "push", "each push": "push",
    "pushing changes": "push", "pushing up changes": "push", "push up changes": "push", "push changes": "push",
    "pushing code": "push", "pushing to remote": "push", "any push": "push", "git push": "push",
    "opening a pr": "pr", "creating a pr": "pr", "opening a pull request": "pr", "creating a pull request": "pr",
    "submitting a pr": "pr", "submitting a pull request": "pr", "a pr": "pr", "prs": "pr", "pull requests": "pr",
    "opening prs": "pr", "creating prs": "pr", "submitting": "pr", "submitting changes": "pr", "submitting code": "pr",
    "create a pr": "pr", "open a pr": "pr", "a pull request": "pr", "the pr": "pr", "pr creation": "pr",
    "opening pull requests": "pr", "creating pull requests": "pr", "submitting pull requests": "pr",
    "merging": "merge", "merge": "merge", "a merge": "merge",
    "remote commands": "remote", "remote-based commands": "remote", "remote-based command": "remote", "remote command": "remote",
    "remote operations": "remote", "remote git commands": "remote", "remote git operations": "remote",
    "github operations": "github", "github operation": "github", "github actions on the repo": "github",
    "creating or updating a pr": "pr", "opening or updating a pr": "pr", "creating or updating a pull request": "pr",
    "opening or updating a pull request": "pr",
    "tagging a release": "release", "tagging releases": "release", "tagging a new release": "release", "tagging a version": "release",
    "cutting a release": "release", "creating a release": "release", "creating a github release": "release",
    "publishing a release": "release", "releasing": "release", "a release": "release", "each release": "release",
    "every release": "release", "tagging": "release",
}


#: words between an action's verb and its noun that do not change which action it is
#: ("creating any pull request" is "creating a pull request")
_THEN_DETERMINERS = frozenset(("a", "an", "any", "the", "every", "each", "your", "new", "all"))


def _then_key(words: list[str]) -> str:
    return " ".join(w for w in words if w not in _THEN_DETERMINERS) or " ".join(words)


_THEN_KEYS: dict[str, str] = {_then_key(words.split()): then for words, then in _THEN_WORDS.items()}


def then_at(tokens: list[Token], i: int, end: int) -> tuple[int, str] | None:
    """The action a "before ..." phrase names at `i` ("committing", "every push", "opening a PR")."""
    k = i
    while k < end and tokens[k].kind == WORD and tokens[k].low in ("every", "each", "any", "all", "you", "your", "the", "making", "doing",
                                                                   "running", "using", "performing"):
        k += 1
    best: tuple[int, str] | None = None
    done = done_at(tokens, k, end)
    if done:
        return done, "commit"  # "before declaring a task complete": the next commit after the work
    for size in (5, 4, 3, 2, 1):
        if k + size > end:
            continue
        words = [t.low for t in tokens[k : k + size] if t.kind == WORD]
        if len(words) != size:
            continue
        key = " ".join(words)
        if key in _THEN_WORDS or _then_key(words) in _THEN_KEYS:
            best = (k + size, _THEN_WORDS.get(key) or _THEN_KEYS[_then_key(words)])
            break
    if best is None and k < end and tokens[k].kind == CODE:
        code = tokens[k].low.split()
        if code[:2] == ["git", "commit"]:
            return k + 1, "commit"
        if code[:2] == ["git", "push"]:
            return k + 1, "push"
        if code[:3] == ["gh", "pr", "create"]:
            return k + 1, "pr"
        if code[:2] == ["git", "tag"] or code[:3] == ["gh", "release", "create"]:
            return k + 1, "release"
        return k + 1, "`" + tokens[k].text  # "before `alembic revision`": that command
    return best


def done_at(tokens: list[Token], i: int, end: int) -> int:
    """Where a phrase that declares the work done ("declaring a task complete", "completion";
    lexicon.markers.DONE_MOMENTS) starting at `i` ends, 0 when none does."""
    words: list[str] = []
    k = i
    while k < end and len(words) < 7 and tokens[k].kind == WORD:
        words.append(tokens[k].low)
        k += 1
    for size in range(min(len(words), 5), 0, -1):
        if " ".join(words[:size]) in _DONE:
            return i + size
    return _done_claim(words, i)


_DONE = frozenset(_markers.DONE_MOMENTS)


def _done_claim(words: list[str], i: int) -> int:
    """The phrases DONE_MOMENTS does not list word for word (lexicon.markers.DONE_CLAIMS,
    DONE_STATES, DONE_ENDS, DONE_WORK): a claim with a state a few words on ("marking the task as
    done", "saying a task is complete"), or an ending of the work or of nothing ("you finish",
    "finishing a task"); where it ends (from `i`), 0 for none ("calling the API", "completing the
    migration")."""
    skip = 0
    while skip < len(words) and words[skip] in ("you", "ever", "we", "only", "then", "actually"):
        skip += 1
    words = words[skip:]
    if not words:
        return 0
    if words[0] in _markers.DONE_CLAIMS:
        state = next((n for n, w in enumerate(words[1:], 1) if w in _markers.DONE_STATES), None)
        if state is not None and any(w in _markers.DONE_WORK or w in ("as", "is", "are", "you're", "everything")
                                     for w in words[1:state]):
            return i + skip + state + 1
        return 0
    if words[0] in _markers.DONE_ENDS:
        rest = [w for w in words[1:] if w not in _THEN_DETERMINERS]
        if not rest:
            return i + skip + 1
        if rest[0] in _markers.DONE_WORK:
            return i + skip + 1 + words[1:].index(rest[0]) + 1
    return 0


def workflow_title(words: list[str]) -> str:
    """The git action a checklist or workflow heading names ("pre-commit checklist": commit), ""
    for another heading (lexicon.markers.WORKFLOW_TITLES)."""
    text = f" {' '.join(words)} "
    return next((then for title, then in _markers.WORKFLOW_TITLES if f" {title} " in text), "")


#: commands that do a git action an ordering gates: the action itself, not a step before it
_ACTION_COMMANDS = (("git", "add"), ("git", "commit"), ("git", "push"), ("gh", "pr"))


def does_action(command: str) -> bool:
    """`git commit -m msg`, `git add .`, `gh pr create`: the action a workflow leads to, not one of its steps."""
    words = command.split()
    return tuple(words[:2]) in _ACTION_COMMANDS


#: words that point at what follows the sentence ("run these checks:", "the following steps:")
_POINTING = frozenset(("these", "following"))


def read_ordering(tokens: list[Token], cues: list[tuple[int, int, str, str]], block: list[Obj] | None = None,
                  label: list[Obj] | None = None) -> Frame | None:
    """"Run X before committing", "Before committing, run X", "Only push after running X",
    "Never commit without running X", "X must pass before merging" (an ordering, or None).
    `block`: the commands of a code block the sentence introduces ("Before pushing, rebase onto
    main:" then the commands), what must run first when the sentence names none. `label`: the
    commands a list item opens with ("`make e2e` — only after `make build`"), what the clause
    orders when it names no action of its own."""
    n = len(tokens)
    bans = [c for c in cues if c[2] in (BAN, AVOID)]
    for m, tok in enumerate(tokens):
        if tok.kind != WORD:
            continue
        low = tok.low
        if low in ("before", "prior") and not (low == "prior" and (m + 1 >= n or tokens[m + 1].low != "to")):
            start = m + (2 if low == "prior" else 1)
            then = then_at(tokens, start, n)
            if then is None:
                continue
            if any(b[0] < m for b in bans):
                # "Don't run `make test` before committing": a ban limited to a moment is no ban
                return Frame("", start=tokens[0].start, notes=["a ban limited to a moment ('before ...'): no check"])
            hooks = _hooks_named(tokens, 0, m) if _imperative(tokens, m) else []
            if hooks and then[1] in ("commit", "push", "merge"):
                # "Always run the git hooks before pushing": they run inside the push unless skipped
                return _no_skipping(tokens, hooks, f"the hooks run inside {then[1]}: a ban on skipping them")
            # "before declaring a task complete": no tool call shows it; the next commit after the last
            # change is where the order can be checked, as a warning
            done = bool(done_at(tokens, start, n))
            left = _first_objects(tokens, 0, m) if _imperative(tokens, m) else []
            if not left:
                left = _task_paren(tokens, m)  # "Always format code with Prettier (`pnpm format`) before committing"
            if not left:
                # "tests must pass before committing", "ensure linting passes before pushing" (said
                # without "must" / "ensure", a description of practice: a warning)
                left = _passing(tokens, m)
                described = bool(left) and not any(c[2] == REQUIRE for c in cues)
            else:
                described = False
            if left and _kind_of_change(tokens, m):
                # "Test API changes with `make e2e` before committing": after changes of a kind no tool call names
                described = True
            if left:
                # "run `npm test` before committing changes to `src/cli/`": after a change of those paths
                edits = _changed_paths(tokens, then[0], n) if tokens[then[0] - 1].low in ("changes", "code") else []
                return Frame(REQUIRE, ordering=Ordering(left, then[1], soft=done or described or not hard(cues),
                                                        edits=[ANY_CHANGE] if done else edits),
                             start=tokens[0].start, notes=[f"ordering: {join(tokens[:m])} before {then[1]}"])
            if _commands_only(tokens, m):
                # "`make lint` before committing": an order without its verb, said tersely (a warning)
                return Frame(REQUIRE, ordering=Ordering([Obj("code", t.text) for t in tokens[:m] if t.kind == CODE], then[1], soft=True),
                             start=tokens[0].start, notes=[f"ordering without a verb: {join(tokens[:m])} before {then[1]}"])
            # "Before committing, make sure to run X" / "Before committing, make sure X is run"
            right = _first_objects(tokens, then[0], n)
            if right and block and tokens[-1].kind == PUNCT and tokens[-1].text == ":" and any(
                    t.kind == WORD and t.low in _POINTING for t in tokens[then[0]:]):
                right = []  # "Before creating a PR, run these checks:": the checks are the code block's commands
            if right:
                return Frame(REQUIRE, ordering=Ordering(right, then[1], soft=done or not hard(cues), edits=[ANY_CHANGE] if done else []),
                             start=tokens[0].start,
                             notes=[f"ordering: before {then[1]}, {join(tokens[then[0]:])}"])
            approval = _approval(tokens, then[0], n) or _approval(tokens, 0, m)
            if approval and not any(c[2] == ASK for c in cues) and (then[1] in ("commit", "push", "merge") or then[1].startswith("`")):
                # "Before running `git push`, stop and get explicit human approval"; "get confirmation
                # before merging any PR": the action with what it names (`gh pr merge`)
                named = read_action_frame(tokens, m, start, then_end, ASK, approval, Context()) if (
                    then_end := _clause_end(tokens, start)) > start else None
                if named is not None and named.actions and (named.objects or named.more):
                    # "approval before committing any changes or pushing to remote": each verb named
                    named.start = tokens[0].start
                    named.notes.insert(0, f"'{approval}' before {then[1].lstrip('`')}: ask")
                    return named
                frame = Frame(ASK, approval, start=tokens[0].start, notes=[f"'{approval}' before {then[1].lstrip('`')}: ask"])
                if then[1].startswith("`"):
                    frame.actions, frame.verb, frame.objects = ["run"], "run", [Obj("code", then[1][1:])]
                else:
                    frame.actions, frame.verb = [then[1]], then[1]
                return frame
            if block and tokens[-1].kind == PUNCT and tokens[-1].text == ":" and (_imperative(tokens, m) or m == 0):
                # the commands are in the code block below: how closely they must be followed is the
                # reader's to judge (a warning), unless the sentence says must / always
                strong = hard(cues) and not any(t.kind == WORD and t.low == "should" for t in tokens)
                return Frame(REQUIRE, ordering=Ordering(list(block), then[1], soft=not strong or done,
                                                        edits=[ANY_CHANGE] if done else []),
                             start=tokens[0].start,
                             notes=[f"ordering: before {then[1]}, the commands of the code block below"])
        if low in ("after", "once", "if", "when"):
            # "only push after running X" / "push only after X" / "only commit once the tests pass"
            only = next((c for c in cues if c[2] == ONLY), None)
            if only is not None:
                then = then_at(tokens, skip_adverbs(tokens, only[1], m), m) or then_at(tokens, 0, only[0])
                first = _first_objects(tokens, m + 1, n) or _built(tokens, m + 1, n) or _made_things(tokens, m + 1, n)
                if not first and m + 1 < n and tokens[m + 1].kind == CODE:
                    first = [Obj("code", t.text) for t in tokens[m + 1 :] if t.kind == CODE]  # "only after `make build`"
                labelled = then is None and bool(label) and (low in ("after", "once") or bool(_built(tokens, m + 1, n)))
                if labelled and label:
                    # "`make e2e` — only after `make build`", "`make preview` — only use if the app has
                    # already been built": the item's own command comes after (a warning)
                    then = (m, "`" + label[0].text)
                if then is not None and first and (low in ("after", "once") or labelled):
                    return Frame(REQUIRE, ordering=Ordering(first, then[1], soft=labelled), start=tokens[0].start,
                                 notes=[f"ordering: only {then[1].lstrip('`')} after {join(tokens[m + 1:])}"])
        if low == "to" and m + 2 < n and tokens[m + 1].low in _VERIFY_VERBS and not bans:
            # "Always use `make check` to verify parser changes": the command after those changes
            changed = _change_phrase(tokens, m + 2, n)
            if changed is not None:
                tied = _after_change(tokens, cues, m, changed, [])
                if tied is not None:
                    return tied
        if low in _REQUIRES and 0 < m < n - 1 and not bans:
            # "Schema changes require running `make regen`", "Any change to `proto/` requires `buf generate`"
            changed = _change_phrase(tokens, 0, m)
            if changed is not None and changed[0] >= m:
                tied = _required_by_change(tokens, cues, m, changed)
                if tied is not None:
                    return tied
        if low in _markers.CHANGE_TRIGGERS and m + 1 < n and not bans and not any(c[2] in (ONLY, ASK) for c in cues):
            # "run X after (making) (code) changes", "after modifying SQL queries, run X", "whenever you
            # touch `proto/`, run X": X after the last change of those files, before the next commit
            changed = _change_phrase(tokens, m + 1, n)
            if changed is None and m + 2 == n and tokens[m + 1].kind == PUNCT and tokens[m + 1].text in (":", "\uff1a"):
                # "Always run verification after:" and the changes listed below: which files they
                # are, the items' words may not say (any change, a warning)
                changed = (m + 1, [ANY_CHANGE], True)
            if changed is not None:
                tied = _after_change(tokens, cues, m, changed, block or [])
                if tied is not None:
                    return tied
        if low in ("without", "until") and bans and bans[0][0] < m:
            # "never commit without running X", "don't push until X passes"
            cue = bans[0]
            then = then_at(tokens, skip_adverbs(tokens, cue[1], m), m)
            if then is None:
                found = action_at(tokens, skip_adverbs(tokens, cue[1], m), m)
                if found is not None and found[1] and found[1][0] in ("commit", "push", "merge"):
                    then = (found[0], found[1][0])
            hooks = _hooks_named(tokens, m + 1, n)
            if hooks and then is not None:
                # "never commit without running the pre-commit checks": they run inside the commit
                # unless skipped (`--no-verify`); no other command has to come first
                return _no_skipping(tokens, hooks, f"the hooks run inside {then[1]}: a ban on skipping them", cue)
            first = _first_objects(tokens, m + 1, n)
            # "never mark a task complete without running the tests": the work declared done is seen
            # at the next commit after the last change, a warning (as "before declaring it done")
            done = bool(done_at(tokens, skip_adverbs(tokens, cue[1], m), m))
            soft = done
            if not first and low == "without" and read_conditions(tokens, m, n)[0] not in ("permission", "judgment"):
                # "never commit without changesets": after what the document's command makes, a warning
                # (the words may not cover every case the author had in mind)
                first, soft = _made_things(tokens, m + 1, n), True
            if then is not None and first:
                return Frame(REQUIRE, ordering=Ordering(first, then[1], soft=soft, edits=[ANY_CHANGE] if done else []),
                             start=tokens[0].start, notes=[f"ordering: never {then[1]} {low} {join(tokens[m + 1:])}"])
    return _work_state(tokens, bans)


_CHAIN_ARROWS = frozenset(_markers.CHAIN_ARROWS)
#: words that may follow a git action in a step of a chain ("commit and push", "push to origin")
_CHAIN_FILLERS = frozenset(("and", "then", "to", "origin", "remote", "branch", "changes", "it", "&"))


def read_chain(tokens: list[Token], ctx: Context) -> list[Frame]:
    """"Workflow: edit → `make test` → commit → push", "1) `cargo fmt` 2) `cargo clippy` 3) commit":
    a workflow on one line, its steps joined by arrows (lexicon.markers.CHAIN_ARROWS) or numbers.
    The commands of the steps after one git action (or from the start) run before the next one;
    a step in brackets is for some changes only, and a command that does a git action is no step
    before it. A warning unless the line says must; [] when the line is no such chain (a
    pipeline with no git action, a ban)."""
    steps = _chain_steps(tokens)
    if len(steps) < 3 or ctx.modality in (BAN, AVOID, ASK):
        return []
    cues = find_cues(tokens)
    if any(c[2] in (BAN, AVOID, ASK) for c in cues):
        return []
    strong = hard(cues) and not any(t.kind == WORD and t.low == "should" for t in tokens)
    frames: list[Frame] = []
    pending: list[Obj] = []
    for step in steps:
        if step[0].kind == PUNCT and step[0].text in ("(", "\uff08", "["):
            continue  # "(for big changes `npm run e2e`)": a step for some changes only
        then = _chain_action(step)
        if then:
            if pending:
                frames.append(Frame(REQUIRE, ordering=Ordering(pending, then, soft=not strong or ctx.advised), start=tokens[0].start,
                                    text=join(tokens), notes=[f"a workflow on one line: {', '.join(o.text for o in pending)} before {then}"]))
            pending = []
            continue
        # `data-update` → `publish`: the stages of a pipeline the text describes, not commands
        pending += [Obj("code", t.text) for t in step if t.kind == CODE and _runs_program(t.text) and not does_action(t.text)]
    return frames


def _runs_program(code: str) -> bool:
    """`npm run build`, `./scripts/check.sh`, `tools/lint.sh`: a code span that runs a known program or a script."""
    words = code.split()
    return bool(words) and (words[0].rsplit("/", 1)[-1] in _programs.KNOWN_PROGRAMS or words[0].startswith("./")
                            or words[0].endswith(".sh"))


def _chain_steps(tokens: list[Token]) -> list[list[Token]]:
    """The steps of a line cut at its arrows and at numbers closed by ")" ("2)"); one step when it has none."""
    steps: list[list[Token]] = [[]]
    for k, tok in enumerate(tokens):
        if tok.text in _CHAIN_ARROWS or (tok.kind == WORD and tok.text.isdigit() and k + 1 < len(tokens)
                                         and tokens[k + 1].kind == PUNCT and tokens[k + 1].text == ")"):
            steps.append([])
        elif not (tok.kind == PUNCT and tok.text == ")" and k > 0 and tokens[k - 1].kind == WORD and tokens[k - 1].text.isdigit()):
            steps[-1].append(tok)
    return [step for step in steps if step]


def _chain_action(step: list[Token]) -> str:
    """The git action a chain's step is ("commit", "Commit and push", "`git push`", "PR"), "" for another step."""
    words = [t for t in step if not (t.kind == PUNCT and t.text in ".,;:!")]
    found = then_at(words, 0, len(words)) if words else None
    if found is None or found[1] not in _THEN or found[1] == "remote":
        return ""
    rest = words[found[0]:]
    if any(t.kind != WORD or (t.low not in _CHAIN_FILLERS and then_at([t], 0, 1) is None) for t in rest):
        return ""  # "push to the registry", "commit message format": not the git action itself
    return found[1]


#: git actions a chain's step may be
_THEN = frozenset(("commit", "push", "pr", "merge", "release"))


#: verbs of a purpose that checks the work ("use `make check` to verify parser changes")
_VERIFY_VERBS = frozenset(("verify", "validate", "test", "check", "confirm"))
#: a change as the subject that needs a command ("schema changes require running `make regen`")
_REQUIRES = frozenset(("require", "requires", "need", "needs", "necessitate", "necessitates"))
#: words that say a thing was made by a build ("once the app has been built")
_BUILT = frozenset(("built", "compiled", "bundled"))


def _built(tokens: list[Token], i: int, end: int) -> list[Obj]:
    """"if the frontend has already been built", "once it is compiled": the build task, run first."""
    if any(t.kind == WORD and t.low in _BUILT for t in tokens[i:end]):
        return [Obj("noun", "build", meaning={"category": "build"})]
    return []


def _required_by_change(tokens: list[Token], cues: list[tuple[int, int, str, str]], m: int,
                        changed: tuple[int, list[str], bool]) -> Frame | None:
    """The ordering of "<change> require(s) (running) X": X after the last change of those files,
    before the next commit; said of any change, only a check is an order. A warning unless the
    text says "must" / "always" of named files."""
    n = len(tokens)
    stop, scope, guessed = changed
    anything = scope == [ANY_CHANGE]
    first = _first_objects(tokens, m + 1, n, categories_only=anything)
    if not first and tokens[m + 1].kind == CODE:
        first = _runnable([Obj("code", t.text) for t in tokens[m + 1 :] if t.kind == CODE], anything)
    if not first:
        return None
    strong = hard(cues) and not guessed and not anything
    return Frame(REQUIRE, ordering=Ordering(first, "commit", soft=not strong, edits=scope), start=tokens[0].start,
                 notes=[f"ordering: {join(tokens[:stop])} require {join(tokens[m + 1:])}: after the last change, before the next commit"])


def _hooks_named(tokens: list[Token], i: int, end: int) -> list[Obj]:
    """The git hooks (lexicon.nouns.HOOK_NOUNS) the words from `i` run, when that is all they name."""
    k = i
    while k < end:
        found = action_at(tokens, k, end)
        if found is not None:
            if "run" not in found[1] and "use" not in found[1]:
                return []
            k = found[0]
            break
        k += 1
    objects, _, _ = read_objects(tokens, k if k < end else i, end)
    if objects and all(o.kind == "noun" and "hooks" in o.meaning for o in objects):
        return objects
    return []


def _no_skipping(tokens: list[Token], hooks: list[Obj], note: str,
                 cue: tuple[int, int, str, str] | None = None) -> Frame:
    """A ban on skipping the git hooks (the force of the ban `cue`, else a ban)."""
    modality, words = (cue[2], cue[3]) if cue is not None else (BAN, "must")
    return Frame(modality, words, actions=["bypass"], verb="skip", objects=hooks, start=tokens[0].start, notes=[note])


def _work_state(tokens: list[Token], bans: list[tuple[int, int, str, str]]) -> Frame | None:
    """"Never commit untested code", "don't push code that fails the tests": a ban on committing
    or pushing work in a state (lexicon.markers.WORK_STATES) is an order to run the task that
    shows it first, stated softly; a state only the agent can judge gives no check. None when
    the clause names a path, a command or a text (those are what it bans), or no work."""
    if any(t.kind in (CODE, QUOTE) for t in tokens):
        return None
    n = len(tokens)
    if bans:
        found = action_at(tokens, skip_adverbs(tokens, bans[0][1], n), n)
        if found is None or not found[1] or found[1][0] not in ("commit", "push", "merge"):
            return None
        stop, action, verb, cue = found[0], found[1][0], found[2], bans[0]
    else:
        # "No commits with failing tests": a verbless ban on the action the noun names
        words = [t for t in tokens if t.kind == WORD]
        if len(words) < 3 or words[0].low != "no" or words[1].low not in _markers.VERBLESS_ACTIONS or tokens[0] is not words[0]:
            return None
        stop, action, verb = tokens.index(words[1]) + 1, _markers.VERBLESS_ACTIONS[words[1].low], words[1].low
        cue = (0, 1, BAN, "no")
    words_after = [t.low for t in tokens[stop:] if t.kind == WORD]
    rest = f" {' '.join(words_after)} "
    work = any(f" {w} " in rest for w in _markers.WORK_NOUNS)
    for state in _markers.WORK_STATES:
        phrase = max((p for p in state.phrases if f" {p} " in rest), key=len, default=None)
        if phrase is None:
            continue
        # "untested code", "broken code": a one-word state is of the work a noun names; "with
        # failing tests" names what fails itself
        named = " " in phrase and bool(state.category)
        if not (work or named):
            continue
        if not state.category:
            return Frame(cue[2], cue[3], start=tokens[0].start,
                         notes=[f"'{phrase}' work: no tool call shows that state, it leaves the call to the agent"])
        task = Obj("noun", phrase, meaning={"category": state.category})
        return Frame(REQUIRE, ordering=Ordering([task], action, soft=not named), start=tokens[0].start,
                     notes=[f"'{verb} ... {phrase}': run the {state.category} step before {action} (stated as a state)"])
    return None


#: "confirm" alone is the agent checking ("confirm the remote setup matches"); with a person it is approval
_APPROVAL = ("approval", "approve", "permission", "confirmation", "confirm with the user", "confirm with me", "user confirm",
             "sign-off", "signoff", "go-ahead", "consent", "wait for instruction", "wait for instructions", "wait for the user")


def _clause_end(tokens: list[Token], i: int) -> int:
    """Where the phrase from `i` ends: the next comma, semicolon or colon, or the clause's end."""
    return next((k for k in range(i, len(tokens)) if tokens[k].kind == PUNCT and tokens[k].text in (",", ";", ":")), len(tokens))


def _approval(tokens: list[Token], i: int, end: int) -> str:
    """"stop and get explicit human approval", "wait for instruction": what a person must give first."""
    words = " " + " ".join(t.low for t in tokens[i:end] if t.kind == WORD) + " "
    return next((w for w in _APPROVAL if f" {w} " in words), "")


def _imperative(tokens: list[Token], end: int) -> bool:
    """The words before a clause's verb leave it an order ("Always run", "Please run", "Run"),
    not a description ("We run", "The hook runs")."""
    k = 0
    while k < end:
        tok = tokens[k]
        if tok.kind in (PUNCT, SYMBOL):
            k += 1
            continue
        found = match(tokens, k, "cues", end)
        if found is not None and found[1].modality in (REQUIRE, ONLY):
            k = found[0]
            continue
        if tok.kind == WORD and tok.low in ("please", "first", "also", "then", "and", "important", "critical", "note"):
            k += 1
            continue
        if tok.kind == WORD and tok.low in ("you", "claude", "agents", "we") and k + 1 < end and (
                (cue := match(tokens, k + 1, "cues", end)) is not None and cue[1].modality in (REQUIRE, ONLY)):
            k += 1  # "You must run ...", "Claude MUST run ...": the reader is told; "We run ..." describes
            continue
        return action_at(tokens, k, end) is not None or _checks_code(tokens, k, end) or _task_verb(tokens, k, end) is not None
    return False


def outside_parentheses(tokens: list[Token]) -> list[Token]:
    """The tokens not inside (round or full-width) parentheses."""
    out: list[Token] = []
    depth = 0
    for tok in tokens:
        if tok.kind == PUNCT and tok.text in ("(", "\uff08"):
            depth += 1
        elif tok.kind == PUNCT and tok.text in (")", "\uff09"):
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(tok)
    return out


def _commands_only(tokens: list[Token], end: int) -> bool:
    """Nothing but code spans (joined by punctuation, "and", "then") before `end`."""
    return any(t.kind == CODE for t in tokens[:end]) and all(
        t.kind in (CODE, PUNCT, SYMBOL) or (t.kind == WORD and t.low in ("and", "then", "or")) for t in tokens[:end])


def _checks_code(tokens: list[Token], k: int, end: int) -> bool:
    """"check `git diff`", "review `git status`": looking at a command's output is running it;
    "lint with `rubocop -A`": a task done with a command runs it (lexicon.markers.TASK_VERBS)."""
    if _task_with_code(tokens, k, end):
        return True
    if not (tokens[k].kind == WORD and tokens[k].low in ("check", "review", "verify", "inspect")
            and k + 1 < end and tokens[k + 1].kind == CODE):
        return False
    words = tokens[k + 1].text.split()
    return len(words) > 1 and words[0].lower() in _programs.KNOWN_PROGRAMS  # `git diff`, not `src/config.ts`


def _task_with_code(tokens: list[Token], k: int, end: int) -> int:
    """"lint with `rubocop -A`", "regenerate the SDK with `npm run gen:sdk`", "regenerate the clients:
    `make clients`": where the command of a task verb is (a few words of what it makes may stand
    between), 0 when there is none."""
    if not (tokens[k].kind == WORD and tokens[k].low in _markers.TASK_VERBS):
        return 0
    for m in range(k + 1, min(end - 1, k + 5)):
        tok = tokens[m]
        if (tok.low in _markers.TASK_PREPOSITIONS or tok.kind == PUNCT and tok.text == ":") and tokens[m + 1].kind == CODE:
            return m + 1
        if tok.kind != WORD or tok.low in _markers.TASK_PREPOSITIONS:
            return 0
    return 0


def _task_verb(tokens: list[Token], k: int, end: int) -> list[Obj] | None:
    """"lint code", "format and lint your changes", "test": verbs that name a task
    (lexicon.markers.TASK_VERB_CATEGORIES) with nothing but the work as their object, up to `end`:
    the tasks, or None."""
    found: list[Obj] = []
    while k < end:
        tok = tokens[k]
        if tok.kind == WORD and tok.low in _markers.TASK_VERB_CATEGORIES:
            found.append(Obj("noun", tok.low, meaning={"category": _markers.TASK_VERB_CATEGORIES[tok.low]}))
        elif not (tok.kind == WORD and (tok.low in _markers.TASK_VERB_OBJECTS or tok.low in ("and", "or", "&", "then"))
                  or tok.kind == PUNCT and tok.text in (",", "/", "&")):
            return None
        k += 1
    return found or None


def _made_things(tokens: list[Token], i: int, end: int) -> list[Obj]:
    """"... only after changelog entries exist": what must have been made, named by its words
    (the document's commands that hold the word make it: `pnpm changelog add`)."""
    words: list[str] = []
    for tok in tokens[i:end]:
        if tok.kind != WORD or tok.low in ("exist", "exists", "are", "is", "have", "has", "were", "was", "been") \
                or (words and (tok.low in _PREPOSITIONS or tok.low in _STOPS)):
            break
        if tok.low not in _DETERMINERS:
            words.append(tok.low)
    keys = [w for w in words if len(w) > 3 and w not in ("entries", "entry", "files", "file", "changes", "updates", "update")]
    if not keys or len(words) > 4:
        return []
    key = keys[0][:-1] if keys[0].endswith("s") and len(keys[0]) > 4 else keys[0]  # "changesets": `pnpm changeset`
    return [Obj("noun", " ".join(words), meaning={"made-by": key})]


#: words of a change phrase that neither name the files nor say they changed
_CHANGE_FILLERS = frozenset("you i we make makes making made do doing done to in under of on for with any some a an the your our "
                            "all every each new existing only".split())
#: words that make a phrase about another moment than a change of files ("after a release")
_NOT_CHANGES = frozenset(("release", "releases", "merge", "merging", "deploy", "deploying", "pr", "push", "pushing", "commit",
                          "committing", "version", "dependency", "dependencies", "package", "packages"))
#: a change phrase that describes the change ("when the change is large") names no files changed
_STATE_VERBS = frozenset(("is", "are", "was", "were", "be", "been", "seems", "looks"))
_LANGUAGES = {word: globs for words, globs in _markers.LANGUAGE_FILES for word in words}
ANY_CHANGE = "**"


def _change_phrase(tokens: list[Token], i: int, end: int) -> tuple[int, list[str], bool] | None:
    """"modifying SQL queries", "any Python change", "changes to `api/`", "you touch the grammar",
    "completing a task" (lexicon.markers.CHANGE_WORDS, TASK_DONE): where the phrase stops, the globs
    of the files it names (`**`: any file, when it names none) and whether they are a guess from a
    noun ("the grammar": paths holding the word). None when the words are not about a change."""
    stop = i
    while stop < end:
        tok = tokens[stop]
        if tok.kind == PUNCT and tok.text in (",", ";", ":", ".", "(", ")"):
            break
        if tok.kind == WORD and stop > i and (tok.low in ("before", "then", "and", "so") or _purpose_at(tokens, stop, end) or (
                tok.low not in _markers.CHANGE_WORDS and (found := action_at(tokens, stop, end)) is not None
                and ("run" in found[1] or "use" in found[1]))):
            break
        stop += 1
    words = [t.low for t in tokens[i:stop] if t.kind == WORD]
    text = f" {' '.join(words)} "
    if any(f" {phrase} " in text for phrase in _markers.TASK_DONE):
        return stop, [ANY_CHANGE], False
    judged = any(w in _markers.JUDGED_CHANGES for w in words)
    if judged:
        words = [w for w in words if w not in _markers.JUDGED_CHANGES]
    leading = [w for w in words if w not in _CHANGE_FILLERS][:3]
    if not any(w in _markers.CHANGE_WORDS for w in leading) or any(w in _NOT_CHANGES or w in _STATE_VERBS for w in words):
        return None  # "when the change is large": what the change is like, not which files it touched
    globs: list[str] = []
    languages: list[str] = []
    content: list[str] = []
    unknown = False
    k = i
    while k < stop:
        tok = tokens[k]
        if tok.kind == CODE or (tok.kind == WORD and "/" in tok.text.strip("/")):
            if _globlike(tok.text) and " " not in tok.text.strip():
                path = tok.text.strip().lstrip("./") if tok.text.strip().startswith("./") else tok.text.strip()
                if re.fullmatch(r"\.[A-Za-z0-9]{1,8}", path):
                    path = "*" + path  # "any `.go` file": the files of that extension
                globs.append(path + "**" if path.endswith("/") else path)
            k += 1
            continue
        if tok.kind != WORD:
            k += 1
            continue
        noun = match(tokens, k, "nouns", stop)
        if noun is not None and noun[1][0] == "path":
            globs += list(noun[1][1])
            k = noun[0]
            continue
        if tok.low in _LANGUAGES:
            languages += [g for g in _LANGUAGES[tok.low] if g not in languages]
        elif tok.low not in _CHANGE_FILLERS and tok.low not in _markers.CHANGE_WORDS and tok.low not in _markers.ANY_FILES \
                and tok.low not in _markers.JUDGED_CHANGES and len(tok.low) > 2:
            if tok.low.isalpha():
                content.append(tok.low)
            else:
                unknown = True  # "platform-specific changes": which files, no glob can say
        k += 1
    if globs and languages:
        # "the SQL queries in `db/queries/`": files of the language in those directories
        globs = [f"{g[:-3]}/**/{language}" if g.endswith("/**") else g for g in globs for language in languages]
        globs = [g for k, g in enumerate(globs) if g not in globs[:k]]
    if globs or languages:
        return stop, globs or languages, False
    if content:
        # "the grammar", "the database schema": the paths that hold the head noun (singular)
        word = content[-1]
        word = word[:-3] if word.endswith("ies") else (word[:-1] if word.endswith("s") and not word.endswith("ss") else word)
        return stop, [f"*{word}*", f"**/*{word}*/**"], True
    return None if unknown else (stop, [ANY_CHANGE], judged)


def _changed_paths(tokens: list[Token], i: int, end: int) -> list[str]:
    """"to `src/cli/` or `src/site/`" after "committing changes": the paths (as globs) the
    changes are to, [] when no path follows."""
    if i >= end or tokens[i].kind != WORD or tokens[i].low not in ("to", "in", "under", "within", "inside", "touching", "affecting"):
        return []
    out: list[str] = []
    for tok in tokens[i + 1 : _clause_end(tokens, i + 1)]:
        if tok.kind == CODE or (tok.kind == WORD and "/" in tok.text.strip("/")):
            path = tok.text.strip()
            if not _globlike(path):
                return []
            out.append(path + "**" if path.endswith("/") else path)
        elif not (tok.kind == WORD and tok.low in ("or", "and", "the", "any", "files", "file", "of")):
            break
    return out


def heading_change(tokens: list[Token]) -> tuple[str, ...] | None:
    """The files a heading's change phrase names ("## After every code change": `**`; "### Regenerate
    the clients after template changes": paths holding "template"), None for another heading."""
    for m, tok in enumerate(tokens):
        if tok.kind == WORD and tok.low in _markers.CHANGE_TRIGGERS and m + 1 < len(tokens):
            changed = _change_phrase(tokens, m + 1, len(tokens))
            if changed is not None:
                return tuple(changed[1])
    return None


def _purpose_at(tokens: list[Token], k: int, end: int) -> bool:
    """"to ensure ...", "to catch ...": a purpose clause after the change phrase, not part of it
    ("changes to `api/`" goes on: a path follows)."""
    return (tokens[k].low == "to" and k + 1 < end and tokens[k + 1].kind == WORD
            and tokens[k + 1].low not in _DETERMINERS and not _globlike(tokens[k + 1].text))


def _after_change(tokens: list[Token], cues: list[tuple[int, int, str, str]], m: int,
                  changed: tuple[int, list[str], bool], block: list[Obj]) -> Frame | None:
    """The ordering of "run X after <change>" / "<trigger> <change>, run X": X must run after the last
    change of the phrase's files, before the next commit (or the action a "before ..." names). A
    change of any file asks only for checks ("run lint after changes"), not for chores ("run `cargo
    dev generate-all` after changes"): which files the chore is for, the words do not say. Said
    with "must" it denies; with "always", plainly, or with files guessed from a noun, it warns."""
    n = len(tokens)
    stop, scope, guessed = changed
    anything = scope == [ANY_CHANGE]
    lead = _label_end(tokens, m)
    first = _first_objects(tokens, lead, m, categories_only=anything) if m > lead and _imperative(tokens[lead:], m - lead) else []
    if not first and m <= lead + 1 and stop < n:
        first = _first_objects(tokens, stop, n, categories_only=anything)
    if not first and block and m <= lead + 1 and tokens[-1].kind == PUNCT and tokens[-1].text in (":", "\uff1a"):
        # "**After touching the API:**" and the commands of the code block below it (a warning: how
        # closely they must be followed is the reader's to judge)
        first, guessed = _runnable(list(block), anything), True
    if not first:
        return None
    then = "commit"
    for k in range(stop, n):
        if tokens[k].kind == WORD and tokens[k].low == "before":
            named = then_at(tokens, k + 1, n)
            if named is not None and not named[1].startswith("`"):
                then = named[1]
            break
    strong = hard(cues) and not any(t.kind == WORD and t.low == "should" for t in tokens)
    shown = "any change" if anything else " ".join(scope)
    return Frame(REQUIRE, ordering=Ordering(first, then, soft=guessed or not strong, edits=scope), start=tokens[0].start,
                 notes=[f"ordering: after {join(tokens[m + 1:stop])} ({shown}) means before the next {then}, after the last change"])


def _label_end(tokens: list[Token], end: int) -> int:
    """Where the clause starts after a label of a few words and a colon before `end`
    ("Important: after ...", "Note for agents: run ..."), 0 when there is none."""
    for k in range(1, min(end, 4)):
        if tokens[k].kind == PUNCT and tokens[k].text in (":", "\uff1a"):
            return k + 1 if all(t.kind == WORD for t in tokens[:k]) else 0
    return 0


def _first_objects(tokens: list[Token], i: int, end: int, *, categories_only: bool = False) -> list[Obj]:
    """The commands a "run ..." phrase between i and end names (code spans, task nouns), or the
    tasks its verbs name ("lint and test your code")."""
    start = i
    while start < end:
        cue = match(tokens, start, "cues", end) if tokens[start].kind == WORD else None
        if cue is not None and cue[1].modality in (REQUIRE, ONLY):
            start = cue[0]  # "always", "you must"
        elif tokens[start].kind in (PUNCT, SYMBOL) or tokens[start].low in ("please", "first", "also", "then", "you", "claude"):
            start += 1
        else:
            break
    tasks = _task_verb(tokens, start, end)
    if tasks:
        return tasks
    k = i
    while k < end:
        found = action_at(tokens, k, end)
        if found is not None and "run" in found[1] and (tasks := _task_verb(tokens, found[0], end)):
            return tasks  # "run lint, format, typecheck, and test"
        if _checks_code(tokens, k, end):
            # "always check `git diff` before committing", "lint with `rubocop -A` before committing"
            found = (_task_with_code(tokens, k, end) or k + 1, ["run"], tokens[k].low)
        if found is not None and ("run" in found[1] or "use" in found[1]):
            if k > i and tokens[k - 1].kind == WORD and tokens[k - 1].low in ("is", "are", "be", "gets", "get", "was", "been"):
                # "make sure `tools/format.js` is run": the object comes first
                codes = [Obj("code", t.text) for t in tokens[i:k] if t.kind == CODE]
                if codes:
                    return _runnable(codes, categories_only)
            objects, after, _ = read_objects(tokens, found[0], end)
            if objects:
                steps = _runnable(objects, categories_only)
                return steps + [o for o in _next_steps(tokens, after, end, categories_only) if o not in steps]
        k += 1
    # "make sure `tools/format.js` is run", "`make check` must pass", "tests must pass"
    passive = [t for t in tokens[i:end] if t.kind == WORD and t.low in ("run", "ran", "executed", "pass", "passes", "passing",
                                                                         "succeeds", "succeeding", "green", "resolved", "fixed",
                                                                         "clean")]
    if passive:
        objects, _, _ = read_objects(tokens, i, end)
        if not objects:
            found_objects: list[Obj] = []
            for k in range(i, end):
                if tokens[k].kind == CODE:
                    found_objects.append(Obj("code", tokens[k].text))
                else:
                    noun = match(tokens, k, "nouns", end)
                    # "tests must pass", "ensure all tests pass": the task, when what follows says it passes
                    if noun is not None and noun[1][0] == "category" and noun[0] < end and tokens[noun[0]].kind == WORD \
                            and tokens[noun[0]].low in ("pass", "passes", "passing", "succeed", "succeeds", "succeeding", "are",
                                                        "is", "must", "should"):
                        found_objects.append(Obj("noun", " ".join(t.low for t in tokens[k:noun[0]]), meaning={"category": noun[1][1]}))
            objects = found_objects
        return _runnable(objects, categories_only)
    return []


def _next_steps(tokens: list[Token], k: int, end: int, categories_only: bool) -> list[Obj]:
    """The steps of the verb phrases joined after the first ("validate with `x lint`, run all tests
    and `x tsc`", "format with `x`, then lint with `y`"): each begins with its own verb after a
    comma, "and" or "then"; [] when what follows is no such phrase (a purpose, a new clause)."""
    j = k
    while j < end and (tokens[j].kind == PUNCT and tokens[j].text in (",", ";") or tokens[j].kind == WORD and tokens[j].low in ("and", "then", "also")):
        j += 1
    if j == k or j >= end:
        return []
    found = action_at(tokens, j, end)
    if not (found is not None and "run" in found[1]) and not _checks_code(tokens, j, end):
        return []
    return _first_objects(tokens, j, end, categories_only=categories_only)


def _task_paren(tokens: list[Token], end: int) -> list[Obj]:
    """"Always format code with Prettier (`pnpm format`)", "lint the sources (`make lint`)": a
    task's verb (lexicon.markers.TASK_VERBS) first, and the command in parentheses is how it is done."""
    k = 0
    while k < end and (tokens[k].kind in (PUNCT, SYMBOL) or (found := match(tokens, k, "cues", end)) is not None
                       and found[1].modality in (REQUIRE, ONLY) or tokens[k].low in ("please", "also", "first")):
        k = found[0] if k < end and tokens[k].kind == WORD and (found := match(tokens, k, "cues", end)) is not None else k + 1
    if k >= end or tokens[k].kind != WORD or tokens[k].low not in _markers.TASK_VERBS:
        return []
    return [Obj("code", tokens[j].text) for j in range(k + 1, end)
            if tokens[j].kind == CODE and tokens[j - 1].kind == PUNCT and tokens[j - 1].text == "("]


#: words that say a task's run succeeded ("tests must pass", "make sure linting passes", "`make ci` is green")
_PASS_WORDS = frozenset(("pass", "passes", "passing", "succeed", "succeeds", "succeeding", "green", "clean"))


def _kind_of_change(tokens: list[Token], end: int) -> bool:
    """The order's task is about changes of a kind, named by a word no path stands for: "Test API
    changes with `x` before committing" holds after some changes only ("Test your changes", "code
    changes" are every change)."""
    return any(tokens[k].kind == WORD and tokens[k].low in _markers.KIND_OF_CHANGE_NOUNS and tokens[k - 1].kind == WORD
               and tokens[k - 1].low not in _DETERMINERS and tokens[k - 1].low not in _markers.TASK_VERB_OBJECTS
               and tokens[k - 1].low not in _markers.ANY_FILES for k in range(2, end))


def _passing(tokens: list[Token], end: int) -> list[Obj]:
    """The tasks or commands the words before `end` say must pass ("Tests must pass", "Ensure all
    tests pass", "Make sure linting passes", "All code changes must pass the Playwright tests",
    "`make ci` must be green"): the code spans, else the tasks named (lexicon.categories) before
    or right after the word that says so. [] when no such word is there."""
    k = next((k for k in range(end) if tokens[k].kind == WORD and tokens[k].low in _PASS_WORDS), -1)
    if k == -1:
        return []
    codes = [Obj("code", t.text) for t in tokens[:end] if t.kind == CODE]
    if codes:
        return codes
    out: list[Obj] = []
    for lo, hi in ((0, k), (k + 1, end)):
        j = lo
        while j < hi:
            noun = match(tokens, j, "nouns", hi)
            if noun is not None and noun[1][0] == "category" and noun[1][1] in _PASSING_TASKS:
                out.append(Obj("noun", " ".join(t.low for t in tokens[j : noun[0]]), meaning={"category": noun[1][1]}))
                j = noun[0]
                continue
            j += 1
        if out:
            return out
    return out


#: the tasks whose success a run shows ("the tests pass"), as opposed to, say, a deploy
_PASSING_TASKS = frozenset(("test", "lint", "typecheck", "format", "build", "check"))


def _names_check(command: str) -> bool:
    """The command's words name a check of the work (lexicon.markers.CHECK_WORDS): `pnpm lint:fix`,
    `make analyze`, `just ci` (a short word only as a whole word: `ci`, not "precise")."""
    parts = [p for p in re.split(r"[^a-z0-9-]+", command.lower()) if p]
    return any(part == word or (len(word) > 2 and word in part) for part in parts for word in _markers.CHECK_WORDS)


def _runnable(objects: list[Obj], categories_only: bool) -> list[Obj]:
    if not categories_only and any(o.kind == "code" and o.role != "paren" for o in objects):
        # "run `X` and ensure your tests pass": the commands named are the tests
        objects = [o for o in objects if o.kind == "code"]
    if not any(o.role != "paren" and (o.kind in ("code", "program") or "category" in o.meaning) for o in objects):
        # "run quality checks (`npm run check`)": the command in parentheses is what the words stand for
        objects = [Obj("code", o.text) for o in objects if o.role == "paren" and o.kind == "code" and not o.meaning.get("bare")]
    out = []
    for obj in objects:
        if obj.role == "paren":
            continue
        if obj.kind == "program":
            obj = Obj("code", obj.meaning.get("program", obj.text), obj.role)  # "run pre-commit before commit"
        if obj.kind == "noun" and obj.meaning.get("commands"):
            # "run quality checks (`npm run check`)": the command the task's noun stands for here
            out += [Obj("code", text) for text in obj.meaning["commands"]]
            continue
        if obj.kind == "code" and not categories_only:
            out.append(obj)
        elif obj.kind == "noun" and "category" in obj.meaning and obj.meaning["category"] in _PASSING_TASKS:
            out.append(obj)
        elif obj.kind == "code" and categories_only:
            out.append(obj)
    if categories_only:
        # "run `cargo dev generate-all` after changes": a chore, not a check before the next commit;
        # "run `pnpm lint:fix` after changes" is one (its words name a check)
        out = [o for o in out if o.kind == "noun" or _names_check(o.text)]
    return out


#: words an item opens with when it says in which situation to do something: not a step of the
#: heading's or intro's ordering
_STEP_CONDITIONS = frozenset(("if", "when", "whenever", "for", "unless", "optionally", "optional", "otherwise", "alternatively"))


def opens_situation(tokens: list[Token]) -> bool:
    """"If issues are found, run `pnpm lint`", "For additional test options:": the words open with
    the situation they hold in, so they are no step of an ordering around them."""
    return bool(tokens) and tokens[0].kind == WORD and tokens[0].low in _STEP_CONDITIONS


def _judged_item(tokens: list[Token]) -> bool:
    """"For significant changes, also run `make e2e`": an item under an ordering's heading or intro
    that holds for the changes the agent judges (lexicon.markers.JUDGED_CHANGES), not every time."""
    return any(t.kind == WORD and t.low in _markers.JUDGED_CHANGES and k + 1 < len(tokens) and tokens[k + 1].low in _markers.CHANGE_WORDS
               for k, t in enumerate(tokens))


def read_english(tokens: list[Token], ctx: Context) -> list[Frame]:
    """The frames of one English clause."""
    frames: list[Frame] = []
    cues = find_cues(tokens)
    from cf_guidance.policy.steps import item_step, read_step  # builds on this module's frames

    step = read_step(tokens, cues, ctx) or item_step(tokens, ctx)
    if step is not None:
        return [step]
    ordering = read_ordering(tokens, cues, [o for o in ctx.following if o.role == "block"],
                             [o for o in ctx.label if o.kind == "code"])
    if ordering is not None:
        ordering.text = join(tokens)
        if ordering.ordering is not None:
            ordering.ordering.either = _either(tokens)
            ordering.ordering.soft = ordering.ordering.soft or ctx.advised
        frames += _with_joined(ordering)
        return frames
    convention = _commit_convention(tokens, cues)
    if convention is not None:
        return [convention]
    running = _already_running(tokens)
    if running is not None:
        return [running]
    from cf_guidance.policy.shapes import read_shape  # the shape reader builds on this module's frames

    shapes = read_shape(tokens, cues, ctx.following, ctx.texts, ctx.texts_cue)
    for shape in shapes:
        shape.text = join(tokens)
    if shapes:
        return shapes
    base = _pr_base(tokens, cues)
    if base is not None:
        return [base]
    if ctx.then and not any(c[2] in (BAN, AVOID, ASK) for c in cues) and not _judged_item(tokens) and not (
            opens_situation(tokens)):
        # an item under "Before every push:" ("Run `npm run lint` and fix any issues"); not one that
        # opens with its own situation ("If issues are found, run `pnpm lint`", "For coverage, use X")
        first = _first_objects(tokens, 0, len(tokens))
        if not first and tokens and tokens[0].kind == CODE and all(t.kind in (CODE, PUNCT) for t in tokens):
            first = [Obj("code", t.text) for t in tokens if t.kind == CODE]  # "- `bash -n build.sh`" under "Before pushing, run:"
        colon = next((k for k, t in enumerate(tokens[:4]) if t.kind == PUNCT and t.text == ":"), -1)
        if all(o.kind == "noun" for o in first) and colon > 0 and colon + 1 < len(tokens) and all(
                t.kind in (CODE, PUNCT) for t in tokens[colon + 1:]):
            # "1. **Build**: `npm run build`": a step's label, then its command (not "Config: `settings.yaml`");
            # "2) Run the linters: `make lint`": the command is the task the label names
            first = [Obj("code", t.text) for t in tokens[colon + 1:] if t.kind == CODE and _runs_program(t.text)] or first
        nested = [o for o in ctx.following if o.role == "block"]
        if nested and not any(t.kind == CODE for t in tokens) and (first or _first_objects(tokens, 0, len(tokens), categories_only=True)
                                                                    or action_at(tokens, 0, len(tokens)) is not None):
            first = nested  # "1. **Run tests**" and the commands of the code block nested under it
        first = [o for o in first if o.kind != "code" or not does_action(o.text)]
        if ctx.edits == [ANY_CHANGE] or ctx.steps:
            # "**Versioning (after code changes):**" over `npm run version:patch`: after any change, only
            # checks of the work are orders (the chores are for some changes, which the words do not say);
            # so for steps read from their order alone ("1. Run the release script ... 3. Open PR"), where
            # a runner's default target checks too ("2. Run `make` and fix what fails")
            first = [o for o in first if o.kind != "code" or _names_check(o.text)
                     or ctx.steps and o.text.strip() in _programs.KNOWN_PROGRAMS]
        if first:
            # the heading's or intro's force, or the item's own ("- `make lint` must pass")
            soft = ctx.soft and not hard(cues)
            return [Frame(REQUIRE, ordering=Ordering(first, ctx.then, soft=soft, either=_either(tokens), edits=list(ctx.edits)),
                          start=tokens[0].start,
                          text=join(tokens),
                          inherited=True, notes=[f"ordering from the heading or intro: before {ctx.then}"])]
    after = ask_after(tokens, cues)
    if after is not None:
        return _with_joined(after)
    if cues and cues[0][2] == REQUIRE and all(t.low in _markers.AGENT_SUBJECTS for t in tokens[:cues[0][0]]):
        # "Always mention AI assistance in commit messages", "Please always disclose ...", "You must
        # mention ...": a text the message must hold
        required = _disclosure(tokens, cues[0][1])
        if required is not None:
            required.text = join(tokens)
            return [required]
    if not any(c[2] == ASK for c in cues):
        asked = _ask_before(tokens, ctx)
        if asked is not None:
            frames += _with_joined(asked)
            cues = [c for c in cues if c[2] != REQUIRE or c[0] > asked.start_token]
    for index, (i, j, modality, words) in enumerate(cues):
        end = cues[index + 1][0] if index + 1 < len(cues) else len(tokens)
        allowed, subject = subject_allows(tokens, i)
        if not allowed and ctx.item and ctx.modality and i == 0:
            allowed = True
        if words in _NOT_USED and not words.endswith("used"):
            frame = _not_used_by_project(tokens, i, j, end, words)
            if frame is not None:
                frames.append(frame)
            continue
        if not allowed and words in _POSTFIX_CUES:
            # "`git push --force` is forbidden", "`docker` is not available": the subject is what is meant
            frame = _postfix(tokens, i, j, words, modality)
            if frame is not None:
                frames.append(frame)
                continue
        if not allowed and modality == ONLY and _imperative(tokens, i):
            allowed = True  # "Use `x` only when ...": the verb comes first
        if modality == BAN and i > 0 and j < end and all(t.kind == PUNCT or t.low in _programs.BARE_RUN_WORDS for t in tokens[j:end]) \
                and (run_under := runner_rule(tokens, 0, i)) is not None and run_under.objects[0].meaning.get("under") is None:
            # "Run `pytest` via `uv run`, never directly": the programs named run bare is what is banned
            run_under.notes.insert(0, f"'{words}' after a runner: the bare run")
            frames.append(run_under)
            continue
        if not allowed and modality in (REQUIRE, ONLY) and (run_under := runner_rule(tokens, 0, len(tokens))) is not None:
            # "pytest must always be invoked through `poetry run`": the subject is run under the runner
            run_under.notes.insert(0, f"'{words}' with a runner")
            frames.append(run_under)
            continue
        if not allowed and modality in (REQUIRE, ONLY):
            frame = read_requirement(tokens, i, j, end, modality, words, ctx)
            if frame.requirement == "branch":
                frame.start, frame.text = tokens[i].start, join(tokens)
                frames.append(frame)
                continue
        if not allowed and modality == REQUIRE and (passive := _passive(tokens, i, j, end, modality, words)) is not None \
                and passive.actions == ["run"] and root_place(passive.qualifier):
            # "`pnpm install` must be run from the repository root": "run it from the root", in the passive
            passive.text = join(tokens)
            frames.append(passive)
            continue
        if not allowed and modality in (BAN, AVOID):
            about_text = _surface_subject(tokens, i, j, end, modality, words)
            if about_text is not None:
                frames.append(about_text)
                continue
        if (not allowed or i > 0) and modality in (BAN, AVOID):
            # a subject the agent could be ("Generated files must not be edited") is, in the passive, what is protected
            passive = _passive(tokens, i, j, end, modality, words)
            if passive is not None:
                passive.text = join(tokens)
                frames.append(passive)
                continue
        if not allowed and modality == ONLY and (alone := _only_tool(tokens, i, j, end) or _only_of_job(tokens, i, j, end)) is not None:
            # "pnpm only", "Package manager: pnpm ONLY": the tool before the cue is the one of its job
            alone.notes.insert(0, f"'{words}' after one tool of a job")
            alone.text = join(tokens)
            frames.append(alone)
            continue
        if not allowed:
            frames.append(Frame(modality, words, start=tokens[i].start, text=join(tokens),
                                notes=[f"'{words}' has a subject ({join(tokens[:i])}): a description, not an instruction"]))
            continue
        if modality == REQUIRE and ctx.modality in (BAN, AVOID, ASK) and ctx.item and words in ("need to", "needs to", "have to", "has to"):
            # "Stop and ask the user when:" / "- Need to add new dependencies": the item is the situation
            frame = read_action_frame(tokens, i, j, end, ctx.modality, ctx.cue, ctx)
            frame.inherited = True
            frame.notes.append(f"'{words}' describes the situation; the force '{ctx.cue}' comes from the intro")
        elif modality in (BAN, AVOID, ASK):
            frame = read_action_frame(tokens, i, j, end, modality, words, ctx)
            if subject in ("you", "we") and words in ("never", "don't", "do not"):
                frame.indicative = True
                frame.notes.append(f"'{subject} {words} ...' describes practice: softened to a warning")
        else:
            frame = read_requirement(tokens, i, j, end, modality, words, ctx)
            if modality == ONLY and any(t.low == "should" for t in tokens[:i]):
                frame.indicative = True  # "you should only edit files in `src/`": advice, a warning
        frame.start = tokens[i].start
        frame.text = join(tokens)
        frames += _with_joined(frame)
    if not cues or all(cue[2] == REQUIRE for cue in cues):
        frame = _placement(tokens, bool(cues))
        if frame is not None:
            frame.text = join(tokens)
            return [frame]
    if not cues:
        frame = _confinement(tokens) or _ignored(tokens) or _kept_out(tokens) or _stated_not_done(tokens)
        if frame is not None:
            return [frame]
        frame = _read_only(tokens, ctx)
        if frame is not None:
            frame.text = join(tokens)
            return [frame]
        frame = _no_action(tokens, ctx)
        if frame is not None:
            frames.append(frame)
            return frames
        frame = read_uncued(tokens, ctx)
        if frame is not None:
            frame.text = join(tokens)
            frames += _with_joined(frame)
    return frames


def _already_running(tokens: list[Token]) -> Frame | None:
    """"Assume the dev server is always running", "The dev server is already running": what runs
    already (lexicon markers.ALREADY_RUNNING, or ASSUMED_RUNNING after "assume") is not to be started
    again, a warning on the commands of its task (markers.ALREADY_RUNNING_TASKS)."""
    words = [(k, t.low) for k, t in enumerate(tokens) if t.kind == WORD]
    lows = [w for _, w in words]
    phrases = _running_phrases()
    if not any(low in phrases for low in lows):
        return None  # most clauses say nothing is running
    for n, (k, low) in enumerate(words):
        for phrase, said in phrases.get(low, ()):
            if lows[n:n + len(said)] != said:
                continue
            first = 0
            assumed = next((len(a.split()) for a in _markers.ASSUME_WORDS if lows[:len(a.split())] == a.split()), 0)
            if assumed:
                first = words[assumed][0] if assumed < len(words) else len(tokens)
            elif phrase in _markers.ASSUMED_RUNNING:
                continue  # "The dev server is running on port 3000": a description
            objects, _, _ = read_objects(tokens, first, k)
            tasks = [o for o in objects if o.meaning.get("category") in _markers.ALREADY_RUNNING_TASKS]
            if not tasks or any(t.kind == WORD and t.low in _STATE_CHECKS for t in tokens[:first]):
                return None
            frame = Frame(AVOID, phrase, actions=["run"], verb="start", objects=tasks, start=tokens[0].start,
                          text=join(tokens), notes=[f"'{join(tokens[first:k])}' {phrase}: starting it again is discouraged"])
            return frame
    return None


@lru_cache(maxsize=None)
def _running_phrases() -> dict[str, list[tuple[str, list[str]]]]:
    """The phrases of lexicon markers.ALREADY_RUNNING and ASSUMED_RUNNING by first word, each with its words."""
    out: dict[str, list[tuple[str, list[str]]]] = {}
    for phrase in _markers.ALREADY_RUNNING + _markers.ASSUMED_RUNNING:
        said = phrase.split()
        out.setdefault(said[0], []).append((phrase, said))
    return out


#: verbs before "the dev server is running" that make it a thing to check, not a state ("Check that ...")
_STATE_CHECKS = frozenset(("check", "verify", "ensure", "confirm", "make", "wait", "until", "if", "when", "whether"))


@lru_cache(maxsize=None)
def _confinements() -> dict[str, tuple[tuple[tuple[str, ...], str], ...]]:
    """The phrases of lexicon.markers.CONFINEMENTS by their first word (each clause tries only its own)."""
    by_first: dict[str, list[tuple[tuple[str, ...], str]]] = {}
    for confinement in _markers.CONFINEMENTS:
        for phrase in confinement.phrases:
            words = tuple(phrase.split())
            by_first.setdefault(words[0], []).append((words, confinement.modality))
    return {first: tuple(entries) for first, entries in by_first.items()}


def _confinement(tokens: list[Token]) -> Frame | None:
    """"Changes are limited to `src/`", "Keep changes within `packages/api`": words of
    lexicon.markers.CONFINEMENTS, then the paths changes may reach (None without a path)."""
    first = 0
    while first < len(tokens) and (tokens[first].kind in (PUNCT, SYMBOL) or tokens[first].low in ("please", "always")):
        first += 1
    words = tuple(t.low for t in tokens[first : first + 6])
    for phrase, modality in _confinements().get(words[0], ()) if words else ():
        if words[: len(phrase)] != phrase:
            continue
        objects, stop, notes = read_objects(tokens, first + len(phrase), len(tokens))
        if not any(o.kind in ("code", "path") for o in objects):
            return None
        frame = Frame(ONLY if modality == ONLY else AVOID, " ".join(phrase), actions=["edit"], verb="edit", objects=objects,
                      confine=True, start=tokens[first].start, text=join(tokens),
                      notes=[f"'{' '.join(phrase)}': changes are confined to what follows"] + notes)
        _read_tail(tokens, stop, len(tokens), frame)
        return frame
    return None


def _ignored(tokens: list[Token]) -> Frame | None:
    """"Ignore the `legacy/` directory", "Skip `vendor/` when searching": paths not to read
    (lexicon.markers.IGNORE_VERBS, SEARCH_SKIP_VERBS): a warning on reads. None unless the verb
    opens the clause and its objects are paths (not "the warnings in `x`")."""
    first = 0
    while first < len(tokens) and (tokens[first].kind in (PUNCT, SYMBOL) or tokens[first].low in _ALLOWED_PREFIX):
        first += 1
    if first >= len(tokens) or tokens[first].kind != WORD:
        return None
    verb = tokens[first].low
    if verb not in _markers.IGNORE_VERBS and verb not in _markers.SEARCH_SKIP_VERBS:
        return None
    objects, stop, notes = read_objects(tokens, first + 1, len(tokens))
    paths = [o for o in objects if o.kind in ("code", "path") and (o.role == "" or o.role == "dir" and o.after_file_noun)
             and " " not in o.text.strip() and not o.text.startswith("-")]
    pronouns = [o for o in objects if o.kind == "pronoun"]
    if pronouns and len(pronouns) == len(objects) and tokens[-1].kind == PUNCT and tokens[-1].text == ":":
        paths = pronouns  # "Ignore these directories:" over a list: the items are the paths
    elif not paths or len(paths) < len([o for o in objects if o.kind != "pronoun"]):
        return None  # "ignore the lint warnings in `legacy/`": something else, in a place
    rest = " " + " ".join(t.low for t in tokens[stop:] if t.kind == WORD) + " "
    if verb in _markers.SEARCH_SKIP_VERBS and not any(f" {c} " in rest for c in _markers.SEARCH_CONTEXTS):
        return None  # "skip `tests/slow/` when running the unit tests": not about reading
    for obj in paths:
        obj.role, obj.after_file_noun = "", False
    return Frame(AVOID, verb, actions=["read"], verb="read", objects=paths, start=tokens[first].start, text=join(tokens),
                 notes=[f"'{verb}' a path: not to be read or searched (a warning)"] + notes)


def _passive(tokens: list[Token], i: int, j: int, end: int, modality: str, words: str) -> Frame | None:
    """"`gen/` must not be edited", "These files are generated and should not be modified:": a ban
    in the passive protects its subject (paths, or the list a pronoun points to); None when the
    subject names no path or the verb is not one of lexicon.markers.PASSIVE_PARTICIPLES."""
    k = skip_adverbs(tokens, j, end)
    if not (k < end and tokens[k].kind == WORD and tokens[k].low == "be"):
        return None
    k = skip_adverbs(tokens, k + 1, end)
    action = _markers.PASSIVE_PARTICIPLES.get(tokens[k].low) if k < end and tokens[k].kind == WORD else None
    if action is None:
        return None
    start = max((m + 1 for m, t in enumerate(tokens[:i]) if t.kind == PUNCT and t.text in (";", ":")), default=0)
    objects, _, notes = read_objects(tokens, start, i)
    if action == "use":
        # "yarn must not be used", "Docker should not be used": a tool, by its name
        objects = [o for o in objects if _names_program(o)] or _subject_program(tokens, start, i)
    elif action == "run" or (action == "install" and any(o.kind == "code" for o in objects)):
        # "`make deploy` must not be run", "`left-pad` must not be installed": the commands (or
        # packages) of the subject; "Migrations must not be run" names a task, not a command
        objects = [o for o in objects if o.kind == "code"] or (_subject_program(tokens, start, i) if action == "run" else [])
    elif action in _EFFECT_PARTICIPLES:
        # "New dependencies must not be added": a kind of thing the commands of its category make
        objects = [o for o in objects if o.kind == "noun" and "category" in o.meaning]
    else:
        objects = [o for o in objects if o.kind in ("code", "path") or (o.kind == "pronoun" and "file" in o.text or o.text == "the following")
                   or (o.kind == "noun" and "path" in o.meaning)]  # "Generated files must not be edited"
    if not objects:
        return None
    frame = Frame(modality, words, actions=[action], verb=tokens[k].low, objects=objects, start=tokens[i].start,
                  notes=[f"passive: what '{join(tokens[start:i])}' names {'must' if modality == REQUIRE else 'must not'} be "
                         f"{tokens[k].low}"] + notes)
    _read_tail(tokens, k + 1, end, frame)
    return frame


def _stated_not_done(tokens: list[Token]) -> Frame | None:
    """"Generated files are NOT committed to git", "`vendor/` is not edited by hand": a statement
    with no cue word that a path is not changed (lexicon markers.STATED_NOT_DONE) is the practice
    of the project, read as the passive ban it states, softened to a warning. Not when the
    sentence says who does it ("`x` is not edited by the installer" describes a tool)."""
    for m in range(1, len(tokens) - 2):
        if not (tokens[m].kind == WORD and tokens[m].low in ("is", "are") and tokens[m + 1].low in ("not", "never")):
            continue
        k = skip_adverbs(tokens, m + 2, len(tokens))
        if k >= len(tokens) or tokens[k].low not in _markers.STATED_NOT_DONE:
            return None
        if k + 1 < len(tokens) and tokens[k + 1].low == "by" and (k + 2 >= len(tokens) or tokens[k + 2].low != "hand"):
            return None
        spoken = tokens[:m] + [Token(WORD, "be", "be", tokens[m].start)] + tokens[k:]
        frame = _passive(spoken, m, m, len(spoken), AVOID, join(tokens[m:m + 2]))
        if frame is not None:
            frame.text = join(tokens)
            frame.notes.append("stated without a cue word: the project's practice, a warning")
        return frame
    return None


#: actions of passive participles whose subject is a category of commands, not a path
_EFFECT_PARTICIPLES = frozenset(("install", "add", "update", "publish", "deploy"))


#: words before a protecting word that make it say what a path is ("`x` is read-only", "treat `x` as read-only")
_PREDICATE_WORDS = frozenset(("is", "are", "as", "remains", "remain", "stays", "stay", "considered", "kept", "strictly"))
#: subjects that are the item's path ("- `legacy/` — everything here is read-only")
_LABEL_SUBJECTS = frozenset(("it", "this", "these", "they", "all", "everything", "here", "in", "files", "file", "directory",
                             "folder", "the", "whole", "entire", "treat", "consider"))


#: verbs that put a kind of file somewhere, as an instruction ("Put tests in `tests/`") or said of
#: the files ("Tests go in `tests/`", "Docs must live under `docs/`", "should be placed in")
_PLACING = frozenset(("put", "place", "save", "store", "keep", "create", "add", "write"))
_GOING = frozenset(("go", "goes", "belong", "belongs", "live", "lives", "reside", "resides", "placed", "put", "kept", "stored",
                    "saved", "created", "located"))


def _placement(tokens: list[Token], cued: bool) -> Frame | None:
    """"Put tests in `tests/`", "All documentation files (`*.md`) must live under `docs/`": where a
    kind of file known by its names goes (lexicon markers.PLACEMENT_EXAMPLES). A frame whose
    objects are that kind and the places; None for anything else (a kind named by where it is, a
    thing no name pattern tells, "components"; a negation: a ban, read as one). An instruction
    needs a rule word ("Always put tests in `tests/`", "Tests must go ..."): "5. Add tests in
    `crates/x/tests/`" is a step of a procedure, not where every test goes."""
    if any(t.kind == WORD and t.low in ("not", "never", "don't", "dont", "no") for t in tokens):
        return None
    words = [k for k, t in enumerate(tokens) if t.kind == WORD]
    if not words:
        return None
    always = tokens[words[0]].low == "always"
    first = words[0] + (1 if always else 0)
    if first < len(tokens) and tokens[first].low in _PLACING:
        if not (cued or always):
            return None
        objects = read_objects(tokens, first + 1, len(tokens))[0]
    else:
        verb = next((k for k in words if tokens[k].low in _GOING), None)
        if verb is None or verb == 0:
            return None
        subject = [o for o in read_objects(tokens, 0, verb)[0] if o.kind == "noun"]
        objects = subject + read_objects(tokens, verb + 1, len(tokens))[0]
    kinds = [o for o in objects if o.kind == "noun" and not o.role and all(
        "/" not in glob for glob in ([o.glob] if o.glob else o.meaning.get("path") or o.meaning.get("placed") or ["/"]))]
    places = [o for o in objects if o.kind == "code" and o.role == "dir" and _pathlike(o.text)]
    if len(kinds) != 1 or not places or any(o.kind not in ("noun", "code") for o in objects):
        return None
    return Frame(REQUIRE, "placement", requirement="placement", actions=["create"], verb="create", objects=kinds + places,
                 start=tokens[0].start, notes=[f"where {kinds[0].text} go: {', '.join(o.text for o in places)}"])


def _read_only(tokens: list[Token], ctx: Context) -> Frame | None:
    """"`vendor/` is read-only", "`cpp/tests/` — CSV tests (READ-ONLY)", "treat `docs/` as
    read-only": a path said to be what a protecting word of lexicon.cues.FILE_TITLES (a ban) says
    is not to be edited. The word must end its phrase (not "read-only mode") and follow "is", "as",
    an opening parenthesis or the item's label; the paths are the clause's own, else the label's."""
    for k in range(len(tokens)):
        found = match(tokens, k, "file-titles")
        if found is None or found[1].modality != BAN:
            continue
        j = found[0]
        if j < len(tokens) and tokens[j].kind != PUNCT:
            return None  # "a read-only replica", "read-only mode": a kind of thing, not what a path is
        before = tokens[k - 1] if k else None
        if not (before is None or before.kind == PUNCT and before.text in ("(", ":", "-", "—", "–")
                or before.kind == WORD and before.low in _PREDICATE_WORDS):
            return None
        paths = [Obj("code", t.text) for t in tokens[:k] if t.kind == CODE and _pathlike(t.text)]
        if not paths and k > 1 and before is not None and before.kind == WORD and before.low in _PREDICATE_WORDS:
            # "The vendor directory is read-only", "the migrations folder is off-limits": a place named in words
            paths = [o for o in read_objects(tokens, 0, k - 1)[0]
                     if o.kind == "path" and o.meaning.get("anywhere") or o.kind == "noun" and "path" in o.meaning]
        subject = {t.low for t in tokens[: k - 1] if t.kind == WORD}
        if not paths and before is not None and before.kind == WORD and not subject <= _LABEL_SUBJECTS:
            return None  # "`src/config.ts` — config objects are immutable": the subject is not the item's path
        objects = paths or [Obj(o.kind, o.text, o.role, dict(o.meaning), o.after_file_noun, o.glob, o.head) for o in ctx.label]
        if not objects:
            return None
        words = " ".join(t.low for t in tokens[k:j])
        return Frame(BAN, words, actions=["edit"], verb="edit", objects=objects, start=tokens[k].start,
                     notes=[f"'{words}': {', '.join(o.text for o in objects)} must not be edited"])
    return None


def _surface_subject(tokens: list[Token], i: int, j: int, end: int, modality: str, words: str) -> Frame | None:
    """"Commit messages must not mention Claude", "PR descriptions must not contain "Generated
    with"": a ban whose subject is where text goes (lexicon.nouns.SURFACES) is about the text its
    verb names there. None when the subject is anything else or the verb does not write text."""
    k = skip_determiner(tokens, 0, i)
    surface = match(tokens, k, "nouns", i)
    if surface is None or surface[0] != i or surface[1][0] != "surface":
        return None
    found = action_at(tokens, skip_adverbs(tokens, j, end), end)
    if found is None or "content" not in found[1]:
        return None
    objects, _, notes = read_objects(tokens, found[0], end)
    if not any(o.kind == "quote" or (o.kind == "noun" and "content" in o.meaning) for o in objects):
        # "... must not mention Claude or Anthropic": the words themselves
        objects = []
        current: list[str] = []
        for tok in tokens[found[0] : end]:
            if tok.kind == WORD and tok.low not in _CONJUNCTIONS and not (tok.low in _DETERMINERS and not current):
                current.append(tok.low)
            elif tok.kind == PUNCT and tok.text in (",", "/") or tok.kind == WORD and tok.low in _CONJUNCTIONS:
                if current:
                    objects.append(Obj("quote", " ".join(current), meaning={"unquoted": True}))
                current = []
            elif tok.kind != WORD:
                break
        if current:
            objects.append(Obj("quote", " ".join(current), meaning={"unquoted": True}))
        if not objects or any(len(o.text.split()) > 4 for o in objects):
            return None
    return Frame(modality, words, actions=["content"], verb=found[2], objects=objects, surfaces=[surface[1][1]],
                 start=tokens[0].start, text=join(tokens),
                 notes=[f"'{join(tokens[:i])}' is where text goes: a ban on the text its verb names"] + notes)


def _with_joined(frame: Frame) -> list[Frame]:
    """The frame and the verb phrases joined to it ("commit X, edit Y, or push Z"), in order."""
    out = [frame]
    for more in frame.more:
        more.start, more.text = frame.start, frame.text
        out += _with_joined(more)
    return out


def _no_action(tokens: list[Token], ctx: Context) -> Frame | None:
    """"No direct pushes to `main`", "no force pushing", "No `git add -A`": "no" opening a clause
    before a git action or a command is a ban."""
    first = _no_at(tokens)
    if first < 0:
        return None
    k = first + 1
    while k < len(tokens) and tokens[k].low in ("direct", "manual", "more", "local", "accidental"):
        k += 1
    if k >= len(tokens):
        return None
    found = action_at(tokens, k, len(tokens))
    if found is None and tokens[k].kind == WORD and tokens[k].low.endswith("s"):
        found = _plural_action(tokens, k)
    noun = match(tokens, k, "nouns")
    made = _made_thing(tokens, k)
    if (nominal := _nominal_action(tokens, k, ctx)) is not None:
        frame = nominal  # before the plural actions: "No changes to `x`" is no "changes" command
    elif made is not None and found is not None and noun is not None and noun[0] > found[0]:
        frame = made  # "No pull requests": the noun is longer than the verb ("pull") it starts with
    elif found is not None and all(_action_kind_of(a) == "git" for a in found[1]):
        frame = Frame(BAN, "no", actions=list(found[1]), verb=found[2])
        start = skip_adverbs(tokens, found[0], len(tokens))
        objects, stop, notes = read_objects(tokens, start, len(tokens))
        if not objects and start < stop and tokens[start].low in _GIT_SITUATIONS:
            stop = start  # "no commits on Fridays": a situation
        if not objects and start >= stop and any(o.kind == "branch" for o in ctx.label):
            # "**Main branch** - no direct pushes": the item's label is the branch
            objects = [o for o in ctx.label if o.kind == "branch"]
            notes.append("objects from the item's label")
        frame.objects, frame.notes = objects, notes
        _read_tail(tokens, stop, len(tokens), frame)
    elif made is not None:
        frame = made
    elif found is not None and tokens[k].low.endswith("ing") \
            and (acted := read_action_frame(tokens, k, k, len(tokens), BAN, "no", ctx)).objects \
            and all(o.kind in ("code", "path") for o in acted.objects):
        # "No editing `dist/` by hand", "No running `make nuke`": the verb as a gerund, with the
        # commands or paths it acts on written out ("No running services are required" names none)
        frame = acted
    elif found is None and tokens[k].kind == CODE:
        frame = Frame(BAN, "no", actions=["bare"])
        objects, stop, notes = read_objects(tokens, k, len(tokens))
        frame.objects, frame.notes = objects, notes
        _read_tail(tokens, stop, len(tokens), frame)
    elif found is None and (listed := _listed_after_noun(tokens, k)) > k:
        # "NO schema resets: `rake db:reset`, `rake db:drop`": the noun names the kind, the list the commands
        frame = Frame(BAN, "no", actions=["bare"])
        objects, stop, notes = read_objects(tokens, listed, len(tokens))
        frame.objects, frame.notes = objects, notes + [f"'{join(tokens[k:listed - 1])}' names the kind of what it lists"]
        _read_tail(tokens, stop, len(tokens), frame)
    elif found is None and _text_named(tokens, k):
        # "No AI attribution in commits or PRs", "No "Co-Authored-By" lines": text not to write
        frame = Frame(BAN, "no", actions=["content"], verb="add")
        objects, stop, notes = read_objects(tokens, k, len(tokens))
        frame.objects, frame.notes = objects, notes
        _read_tail(tokens, stop, len(tokens), frame)
        if not frame.surfaces and not any(o.kind == "noun" and "content" in o.meaning for o in objects):
            if not any(":" in o.text or o.text.endswith("-by") for o in objects if o.kind == "quote"):
                return None  # "No "magic numbers" in the code": not a message's text
            frame.surfaces.append("commit messages")  # a trailer ("Co-Authored-By") is commit text
            frame.notes.append("a quoted trailer: text of commit messages")
    elif found is None and (stop := _no_dependencies(tokens, k)) > k:
        # "No new dependencies without approval", "no dependency installs without asking": adding them
        frame = Frame(BAN, "no", actions=["add"], verb="add",
                      objects=[Obj("noun", " ".join(t.low for t in tokens[k:stop]), meaning={"category": _installed_noun(tokens, k)[1]})])
        _read_tail(tokens, stop, len(tokens), frame)
        if not frame.condition:
            # "No new dependencies." may describe the design as much as forbid a command: a warning
            frame.indicative = True
    else:
        return None
    frame.start, frame.text = tokens[first].start, join(tokens)
    frame.notes.append("'no' before an action: a ban")
    return frame


def _verbless(tokens: list[Token], k: int) -> bool:
    """The "no" clause from `k` on has no verb of its own: a rule fragment ("No changes to `x`
    without approval"), not a statement ("No changes to `x` are needed"); lexicon
    markers.FINITE_AFTER_NO."""
    return not any(t.kind == WORD and t.low in _markers.FINITE_AFTER_NO for t in tokens[k:])


def _nominal_action(tokens: list[Token], k: int, ctx: Context) -> Frame | None:
    """"No changes to `db/`", "No deletion of `fixtures/`": a noun for an action (lexicon
    markers.NOMINAL_ACTIONS) read as its verb, when the fragment names paths or commands."""
    found = match(tokens, k, "nominals")
    if found is None or not _verbless(tokens, k):
        return None
    stop, verb = found
    verb_token = Token(WORD, verb, verb, tokens[k].start)
    spoken = tokens[:k] + [verb_token] + tokens[stop:]
    frame = read_action_frame(spoken, k, k, len(spoken), BAN, "no", ctx)
    if not frame.objects or not all(o.kind in ("code", "path") for o in frame.objects):
        return None
    frame.notes.insert(0, f"'{join(tokens[k:stop])}' names the action '{verb}'")
    return frame


def _made_thing(tokens: list[Token], k: int) -> Frame | None:
    """"No git worktrees unless the user asks", "No deploys without approval", "No new branches.": a
    verbless fragment naming a thing that commands create (lexicon things, its "create" commands)
    or a category of commands that act on the world (lexicon markers.MADE_CATEGORIES) bans them;
    asked when a condition follows, a warning when none does (the fragment may describe the
    project)."""
    found = match(tokens, k, "nouns")
    if found is None or not _verbless(tokens, k) or _listed_after_noun(tokens, k) > k:
        return None  # "NO history rewrites: `git rebase -i`": the list says which commands
    stop, (kind, name) = found
    if kind == "thing":
        thing = next((t for t in _things.THINGS if t.name == name), None)
        if thing is None or "create" not in thing.commands:
            return None
    elif kind != "category" or name not in _markers.MADE_CATEGORIES:
        return None
    if stop < len(tokens) and not (tokens[stop].kind == PUNCT or tokens[stop].low in _FRAGMENT_CONDITIONS):
        return None  # "No branch protection on forks": the thing's word begins another noun
    # a thing is created ("git worktree add"); a category is its commands, run
    verb = "create" if kind == "thing" else "run"
    frame = Frame(BAN, "no", actions=[verb], verb=verb,
                  objects=[Obj("noun", " ".join(t.low for t in tokens[k:stop]), meaning={kind: name})])
    _read_tail(tokens, stop, len(tokens), frame)
    if not frame.condition:
        frame.indicative = True
    frame.notes.append(f"'{join(tokens[k:stop])}' without a verb: {verb} it")
    return frame


#: words that may follow the thing of a verbless "no" fragment: its condition ("unless asked")
_FRAGMENT_CONDITIONS = frozenset(phrase.split()[0] for c in _markers.CONDITIONS for phrase in c.phrases)


#: words that only stress a "no" ("Absolutely no `x`")
_NO_INTENSIFIERS = frozenset(("absolutely", "strictly", "really", "definitely", "just", "and", "also"))
#: plain words of a label before "no" ("**Git:** no force pushes")
_NO_LABEL_WORDS = 4


def _no_at(tokens: list[Token]) -> int:
    """Where the "no" opening a clause is: first, after an intensifier ("Absolutely no `x`") or
    after a short label and its colon ("**Git:** no force pushes"), else -1."""
    first = 0
    while first < len(tokens) and tokens[first].kind in (PUNCT, SYMBOL):
        first += 1
    if first < len(tokens) and tokens[first].low in _NO_INTENSIFIERS:
        first += 1
    colon = next((m for m in range(first, min(len(tokens), first + _NO_LABEL_WORDS + 1))
                  if tokens[m].kind == PUNCT and tokens[m].text == ":"), -1)
    if tokens[first:first + 1] and tokens[first].low != "no" and colon > first and all(t.kind == WORD for t in tokens[first:colon]):
        first = colon + 1  # not "NO schema resets: `x`", where the label is the "no" clause itself
    return first if first < len(tokens) and tokens[first].low == "no" else -1


#: words of the noun between "no" and its list ("NO schema resets: `x`, `y`"): a few plain words
_LISTED_NOUN_WORDS = 4


def _listed_after_noun(tokens: list[Token], k: int) -> int:
    """After "no": where a list of code spans starts when a few plain words (a noun for their kind)
    are followed by a colon or an opening parenthesis and then only code spans ("No schema resets:
    `a`, `b`", "No destructive commands (`a`, `b`)"), else `k`."""
    m = k
    while m < len(tokens) and m - k < _LISTED_NOUN_WORDS and tokens[m].kind == WORD:
        m += 1
    if m == k or m >= len(tokens) or tokens[m].text not in (":", "("):
        return k
    rest = [t for t in tokens[m + 1 :] if not (t.kind == PUNCT or t.low in _CONJUNCTIONS)]
    return m + 1 if rest and all(t.kind == CODE for t in rest) else k


def _text_named(tokens: list[Token], k: int) -> bool:
    """Text for a message at `k`: a quoted text, or a noun of lexicon.nouns.CONTENT_NOUNS."""
    if tokens[k].kind == QUOTE:
        return True
    found = match(tokens, k, "nouns", len(tokens))
    return found is not None and found[1][0] == "content"


#: words before the noun of "no new dependencies" that say nothing of which ones
_INSTALLED_ADJECTIVES = frozenset(("new", "any")) | frozenset(w for c in _categories.CATEGORIES
                                                              if c.name in _markers.INSTALLED_CATEGORIES for w in c.neutral)


def _installed_noun(tokens: list[Token], k: int) -> tuple[int, str]:
    """The end of a noun of things installed at `k` ("new system libraries", "extra third-party
    packages") and its category (lexicon markers.INSTALLED_CATEGORIES); (`k`, "") for any other."""
    at = k
    while at < len(tokens) - 1 and tokens[at].low in _INSTALLED_ADJECTIVES:
        at += 1  # "no new system libraries": what every one added is, not which ones
    for start in (at, k):
        noun = match(tokens, start, "nouns")
        if noun is not None and noun[1][0] == "category" and noun[1][1] in _markers.INSTALLED_CATEGORIES:
            return noun[0], noun[1][1]
    return k, ""


def _no_dependencies(tokens: list[Token], k: int) -> int:
    """After "no": the end of a noun for new dependencies ("new dependencies", "dependency installs")
    that the clause ends on or follows with a condition, else `k` ("no dependencies are bundled"
    describes the project)."""
    stop, _ = _installed_noun(tokens, k)
    if stop == k:
        return k
    while stop < len(tokens) and tokens[stop].low in ("install", "installs", "additions"):
        stop += 1
    if stop < len(tokens) and tokens[stop].kind == WORD and tokens[stop].low not in ("without", "unless", "until"):
        return k
    return stop


def _plural_action(tokens: list[Token], k: int) -> tuple[int, list[str], str] | None:
    """"pushes", "commits" as nouns after "no": the action they name."""
    word = tokens[k].low
    for stem in (word[:-2], word[:-1]):
        names = _action_names(stem)
        if names:
            return k + 1, list(names), word
    return None


#: cues that end the action they are about ("Install packages (ask first)", "Run migrations - ASK FIRST")
_ASK_AFTER = frozenset(phrase for cue in _cues.CUES if cue.name == "ask-first" for phrase in cue.phrases)


def ask_after(tokens: list[Token], cues: list[tuple[int, int, str, str]]) -> Frame | None:
    """"Install packages (npm install/uninstall) - ASK FIRST", "Run database migrations (ask first)": an
    order whose verb comes first and whose force comes last, after a dash, a comma or in parentheses.
    Only when nothing but punctuation follows the cue and the clause opens with a verb of the tables."""
    if not cues or cues[-1][3] not in _ASK_AFTER or cues[-1][0] == 0:
        return None
    i, j, _, words = cues[-1]
    if any(t.kind != PUNCT for t in tokens[j:]) or any(c[2] in (BAN, AVOID, ASK) for c in cues[:-1]):
        return None
    cut = i
    while cut > 0 and tokens[cut - 1].kind == PUNCT and tokens[cut - 1].text in ("(", ",", "-", "\u2013", "\u2014", ":", ";"):
        cut -= 1
    start = skip_adverbs(tokens, 0, cut)
    if action_at(tokens, start, cut) is None:
        return None
    frame = read_action_frame(tokens, 0, 0, cut, ASK, words, Context())
    if not frame.actions:
        return None
    frame.start, frame.text = tokens[0].start, join(tokens)
    frame.notes.insert(0, f"'{words}' after the action it is about")
    return frame


#: cues that follow what they are about ("`x` is forbidden", "`x` is not available", "`x` needs approval")
_POSTFIX_CUES = frozenset(phrase for cue in _cues.CUES if cue.name in ("forbidden-word", "unavailable", "needs-approval")
                          for phrase in cue.phrases) | frozenset(
    phrase for cue in _cues.CUES if cue.name == "not-used" for phrase in cue.phrases if phrase.endswith("used"))
#: of those, the ones without their verb: "is" or "are" must stand before them ("`x` is forbidden")
_COPULA_CUES = frozenset(phrase for cue in _cues.CUES if cue.name == "forbidden-word" for phrase in cue.phrases)
#: cues saying the project does not use a tool: about programs only ("`useSession` is not used" is code)
_NOT_USED = frozenset(phrase for cue in _cues.CUES if cue.name == "not-used" for phrase in cue.phrases)
#: words around a program's name that still name the program ("the Docker CLI is not installed")
_PROGRAM_FILLERS = frozenset(("the", "a", "cli", "command", "binary", "executable"))


def _postfix(tokens: list[Token], i: int, j: int, words: str, modality: str) -> Frame | None:
    """The cue `words` spans tokens[i:j]; what stands before it is its subject."""
    k = i
    while k > 0 and tokens[k - 1].kind == WORD and tokens[k - 1].low in ("is", "are", "strictly", "absolutely", "also", "always"):
        k -= 1
    if k == i and words in _COPULA_CUES:
        return None
    acted = _subject_action(tokens, k, j, words, modality)
    if acted is not None:
        return acted
    objects, stop, notes = read_objects(tokens, 0, k)
    if not objects:
        objects = _subject_program(tokens, 0, k)
        stop = k if objects else stop
    if words in _NOT_USED:
        objects = [o for o in objects if _names_program(o)]
    if modality != BAN and any(o.kind == "flag" or o.text.startswith("-") for o in objects):
        return None  # "the `--watch` flag is not supported": of some program, which one is not the subject
    if modality == AVOID and _elsewhere(tokens[i:]):
        return None  # "`make` is not installed on the CI image": lacking somewhere the agent does not work
    if not objects or stop < k:
        return None
    return Frame(modality, words, actions=["bare"], objects=objects, start=tokens[0].start, text=join(tokens),
                 notes=[f"'{words}' after its subject: the subject is {_POSTFIX_MEANING[modality]}"] + notes)


_POSTFIX_MEANING = {BAN: "banned", AVOID: "discouraged", ASK: "asked about"}


#: words before an action named as a subject that do not change it ("direct pushes to `main`")
_SUBJECT_ADJECTIVES = frozenset(("direct", "manual", "any", "all"))


def _subject_action(tokens: list[Token], k: int, after: int, words: str, modality: str) -> Frame | None:
    """"Direct pushes to `main` are never allowed", "Committing to `master` is not permitted": a git
    action named as the subject (a plural noun or a gerund), with its objects; None otherwise."""
    first = 0
    while first < k and tokens[first].kind == WORD and tokens[first].low in _SUBJECT_ADJECTIVES:
        first += 1
    if first >= k or tokens[first].kind != WORD:
        return None
    verb = action_at(tokens, first, k) or _plural_action(tokens, first)
    if verb is None or not all(_action_kind_of(a) == "git" for a in verb[1]):
        return None
    objects, stop, notes = read_objects(tokens, verb[0], k)
    if stop < k or any(t.kind == WORD for t in tokens[after:]):
        return None  # "commits that break the build", "pushes are never allowed on Fridays": some of them
    frame = Frame(modality, words, actions=verb[1], verb=verb[2], objects=objects, start=tokens[0].start, text=join(tokens),
                  notes=[f"'{words}' after an action named as its subject ({verb[2]}): the action is "
                         f"{_POSTFIX_MEANING[modality]}"] + notes)
    _read_tail(tokens, stop, k, frame)
    return frame


def _subject_program(tokens: list[Token], start: int, end: int) -> list[Obj]:
    """"Docker is not available", "The Poetry CLI is not installed": a program's name as the whole
    subject, capitalised as the first word of a sentence is (read_objects takes a capitalised word
    for a program only when it is a tool's name)."""
    named = [t for t in tokens[start:end] if not (t.kind == WORD and t.low in _PROGRAM_FILLERS)]
    if len(named) == 1 and named[0].kind == WORD and named[0].low in _programs.KNOWN_PROGRAMS:
        return [Obj("program", named[0].low)]
    return []


def _names_program(obj: Obj) -> bool:
    """A program by name: `docker`, npm, Poetry, `npm run build` (a command of a known program)."""
    if obj.kind == "program" or (obj.kind == "noun" and "program" in obj.meaning):
        return True
    return obj.kind == "code" and obj.text.split()[:1] != [] and obj.text.split()[0].lower() in _programs.KNOWN_PROGRAMS


def _not_used_by_project(tokens: list[Token], i: int, j: int, end: int, words: str) -> Frame | None:
    """"This repository does not use npm", "The project doesn't use Poetry", "You don't have access
    to docker": the project's own practice, said of its tools (a warning on running them); any
    other subject ("the worker does not use `docker`") describes some part of the project, not how
    the agent works in it."""
    subject = " ".join(t.low for t in tokens[:i] if t.kind == WORD)
    if subject and subject not in _markers.PROJECT_SUBJECTS and subject not in _markers.AGENT_SUBJECTS:
        return None
    objects, _, notes = read_objects(tokens, j, end)
    programs = [o for o in objects if _names_program(o)]
    if not programs:
        return None
    return Frame(AVOID, words, actions=["use"], verb="use", objects=programs, start=tokens[0].start, text=join(tokens),
                 notes=[f"'{subject or 'it'} {words}': the project does not use these tools"] + notes)


def _elsewhere(tokens: list[Token]) -> bool:
    words = " " + " ".join(t.low for t in tokens if t.kind == WORD) + " "
    return any(f" {place} " in words for place in _markers.ELSEWHERE)


def _ask_before(tokens: list[Token], ctx: Context) -> Frame | None:
    """"Always ask for build configuration before running build", "confirm the target with the
    user before deploying": ask ... before ACTION, with words between."""
    n = len(tokens)
    for a, tok in enumerate(tokens):
        if tok.kind != WORD or tok.low not in ("ask", "confirm", "consult", "check", "double-check"):
            continue
        if tok.low in ("check", "double-check") and not (a + 1 < n and tokens[a + 1].low == "with"):
            continue  # "check `git diff` before committing" runs it; "check with the user before" asks
        if a != 0 and not subject_allows(tokens, a)[0]:
            continue
        for b in range(a + 1, min(n, a + 14)):
            if tokens[b].kind == WORD and tokens[b].low == "before":
                frame = read_action_frame(tokens, b, b + 1, n, ASK, f"{tok.low} ... before", ctx)
                frame.start = tokens[0].start
                frame.start_token = a
                frame.text = join(tokens)
                if frame.actions or frame.objects:
                    return frame
                return None
        return None
    return None


#: words before a program's name that do not change which program it is ("system Maven", "raw dotnet")
def _neutral_before(kind: str, value: Any) -> tuple[str, ...]:
    """The words before a category's noun that describe every member (lexicon categories `neutral`)."""
    if kind != "category":
        return ()
    return next((c.neutral for c in _categories.CATEGORIES if c.name == value), ())


_PROGRAM_ADJECTIVES = _NEUTRAL_BEFORE | frozenset(("system", "global", "globally-installed", "host", "local")) \
    | frozenset(_markers.STATE_CHANGING)  # "never destructive az CLI": the program, narrowed when resolved


def _means_program(tokens: list[Token], start: int, k: int, end: int) -> Obj | None:
    """A known program a verb the tables do not know acts on or through ("never apply Terraform",
    "don't check status with kubectl get", "don't read logs with kubectl"): the program, with its
    subcommand when the words name one, else the clause's words from `start` for the resolver to
    find the subcommand among the document's own commands (lexicon markers.MEANS_EXAMPLES)."""
    for m in range(k + 1, min(end, k + 8)):
        tok = tokens[m]
        if tok.kind != WORD:
            return None
        if tok.low not in _programs.KNOWN_PROGRAMS or tok.low in _programs.VERB_PROGRAMS:
            continue
        before = tokens[m - 1].low
        if m != k + 1 and before not in _markers.TASK_PREPOSITIONS:
            return None
        words = _bare_command(tokens, m, end)
        if len(words) > 1:
            return Obj("program", tok.low, "with", meaning={"command": " ".join(words)})
        doing = tuple(t.low for t in tokens[start:m] if t.kind == WORD and t.low not in _DETERMINERS)
        return Obj("program", tok.low, "with", meaning={"doing": doing})
    return None


def _program_at(tokens: list[Token], k: int, end: int) -> bool:
    """A program named plainly at `k` ("mvn", "Maven"): a known program or a tool's name."""
    if k >= end or tokens[k].kind != WORD:
        return False
    if tokens[k].low in _programs.KNOWN_PROGRAMS:
        return True
    found = match(tokens, k, "nouns", end)
    return found is not None and found[1][0] == "program"


#: places an elided clause may name ("..., never in `src/`", "..., not to `origin`")
_ELIDED_PLACES = frozenset(("in", "into", "under", "inside", "within", "to", "at", "onto"))


def _elided_verb(tokens: list[Token], i: int, k: int, end: int) -> tuple[list[str], str, int] | None:
    """"Push to `myfork`, never to `origin`", "Put tests in `tests/`, not in `src/`": a cue after a
    comma, followed by a place and no verb of its own, reuses the verb the clause opens with
    (lexicon markers.ELIDED_EXAMPLES): (action names, surface words, where the verb ends), or None."""
    if k >= end or tokens[k].kind != WORD or tokens[k].low not in _ELIDED_PLACES:
        return None
    if i < 2 or tokens[i - 1].kind != PUNCT or tokens[i - 1].text not in (",", ";"):
        return None
    first = skip_adverbs(tokens, 1 if tokens[0].low in ("always", "only") else 0, i)
    found = action_at(tokens, first, i)
    return (found[1], found[2], found[0]) if found is not None else None


def read_action_frame(tokens: list[Token], i: int, j: int, end: int, modality: str, words: str, ctx: Context) -> Frame:
    frame = Frame(modality, words)
    k = skip_adverbs(tokens, j, end)
    if modality == ASK and words.endswith("when"):
        frame.condition = ""
    found = action_at(tokens, k, end)
    if found is None and k < end and tokens[k].kind == WORD:
        # "Do NOT try to find alternatives or install these tools": the verb after "or"
        for m in range(k + 1, min(end, k + 5)):
            if tokens[m].kind == WORD and tokens[m].low in ("or", "and"):
                found = action_at(tokens, skip_adverbs(tokens, m + 1, end), end)
                if found is not None:
                    frame.notes.append(f"verb after '{tokens[m].low}': {found[2]}")
                    break
    if (found is None or _command_verb(tokens, k, found[0], end)) and k < end and tokens[k].kind == WORD \
            and tokens[k].low in _programs.KNOWN_PROGRAMS and k + 1 < end:
        english = _english_verb(tokens, k, end)
        if english:
            frame.notes.append(f"'{tokens[k].text}' is the English verb here, not the program")
            if found is None:
                _read_tail(tokens, k + 1, end, frame)
                return frame
            # "Do not make commits.", "do not make changes to:" (a list follows): the table's verb
            # phrase, with nothing or the list's items as its object
        # "Never git commit unless ...", "Never npm install (use pnpm)", "Never: npm install, yarn add":
        # commands written without backticks, one or a list of them
        words_ = [] if english else _bare_command(tokens, k, end)
        if len(words_) > 1:
            objects, m, notes = read_objects(tokens, k, end)
            frame.actions = ["run"]
            frame.verb = "run"
            frame.objects = objects
            frame.notes += [f"command without backticks: {' '.join(words_)}"] + notes
            _read_tail(tokens, m, end, frame)
            return frame
    if found is None and k + 1 < end and tokens[k].low in _NEUTRAL_BEFORE and tokens[k + 1].kind == CODE:
        frame.notes.append(f"'{tokens[k].text}' before the object does not narrow it")
        k += 1  # "never bare `python -m pytest`", "no raw `kubectl apply`": the command itself
    if found is None:
        while k + 1 < end and tokens[k].kind == WORD and tokens[k].low in _PROGRAM_ADJECTIVES and tokens[k + 1].kind == CODE:
            k += 1  # "never bare `python -m pytest`", "not raw `kubectl`": the command itself, no verb
        if k < end and tokens[k].kind in (CODE, QUOTE) or (k < end and tokens[k].kind == WORD and tokens[k].low.startswith("--")):
            objects, stop, notes = read_objects(tokens, k, end)
            frame.objects = objects
            if ctx.actions:
                # "**Never commit:**" over "- ❌ `.env.local`": the mark repeats the intro's force, its verb holds
                frame.actions, frame.verb = list(ctx.actions), ctx.verb
                frame.notes += notes + [f"verb from the sentence introducing the list: {ctx.verb}"]
            else:
                frame.actions = ["bare"]
                frame.notes += notes + ["no verb: the object itself is banned"]
            _read_tail(tokens, stop, end, frame)
            return frame
        while k + 1 < end and tokens[k].kind == WORD and tokens[k].low in _PROGRAM_ADJECTIVES and _program_at(tokens, k + 1, end) \
                and match(tokens, k, "nouns", end) is None:  # "destructive git commands" is a category of its own
            k += 1  # "never system Maven", "not raw dotnet": the program itself
        unknown_verb = k < end and tokens[k].kind == WORD and match(tokens, k, "nouns", end) is None \
            and tokens[k].low not in _DETERMINERS and tokens[k].low not in _STOPS and tokens[k].low not in _PREPOSITIONS \
            and not _program_at(tokens, k, end)
        elided = _elided_verb(tokens, i, k, end)
        if elided is not None:
            frame.actions, frame.verb, after = list(elided[0]), elided[1], elided[2]
            frame.notes.append(f"verb from the clause's first part: {frame.verb} ('..., never {tokens[k].low} ...')")
            # "Put tests in `tests/`, never in `src/`": what is put is the first part's object too
            shared = [o for o in read_objects(tokens, after, i)[0] if o.kind == "noun" and not o.role]
            objects, stop, notes = read_objects(tokens, k, end)
            frame.objects = shared + objects
            frame.notes += notes
            _read_tail(tokens, stop, end, frame)
            return frame
        elif ctx.actions:
            frame.actions = list(ctx.actions)
            frame.verb = ctx.verb
            frame.notes.append(f"verb from the sentence introducing the list: {ctx.verb}")
        else:
            frame.notes.append(f"no action verb after '{words}'" + (f" ('{tokens[k].text}' is not in the table)" if k < end else ""))
            if unknown_verb:
                guess = guessed_change(tokens, k, end)
                if guess is not None:
                    frame.objects, stop, notes = guess
                    frame.actions, frame.verb, frame.guessed = ["edit"], tokens[k].low, True
                    frame.notes.append(f"'{tokens[k].low}' over the path it names: read as a change to it (a guess: "
                                       "asked, never denied)")
                    frame.notes += notes
                    _read_tail(tokens, stop, end, frame)
                    return frame
                means = _means_program(tokens, k, k, end)
                if means is not None:
                    frame.objects, frame.actions, frame.verb, frame.guessed = [means], ["run"], "run", True
                    frame.notes.append(f"'{tokens[k].low}' with `{means.text}`: the command that does it (a guess: asked)")
                    return frame
                # "Don't rely on `git stash`", "never needed": a verb the tables do not know governs the rest
                _read_tail(tokens, k, end, frame)
                return frame
        objects, stop, notes = read_objects(tokens, k, end)
        frame.objects = objects
        frame.notes += notes
        if not objects and ctx.label and (k >= end or tokens[k].kind == PUNCT or tokens[k].low in _STOPS):
            frame.objects = list(ctx.label)
            frame.notes.append("objects from the item's label")
            if not frame.actions:
                frame.actions = ["bare"]
        _read_tail(tokens, stop, end, frame)
        if objects:
            _read_joined(tokens, stop, end, modality, words, ctx, frame, words)
        return frame
    stop_verbs, names, surface = found
    frame.actions = names
    frame.verb = surface
    before_verb = {t.low for t in tokens[j:stop_verbs] if t.kind == WORD}
    k = skip_adverbs(tokens, stop_verbs, end)
    objects, stop, notes = read_objects(tokens, k, end)
    if objects and all(o.kind == "program" and o.role == "with" for o in objects) and all(_action_kind_of(a) == "read" for a in names):
        means = _means_program(tokens, j, stop_verbs - 1, end) if stop_verbs > j else None
        if means is not None:
            # "Don't read logs with kubectl": not every run of the program, the one that reads them
            objects, frame.actions, frame.verb, frame.guessed = [means], ["run"], "run", True
            notes.append(f"reading with `{means.text}`: the command that does it (a guess: asked)")
    if "content" in names and all(o.role or (o.kind == "noun" and "content" in o.meaning) for o in objects):
        # "never mention Claude, AI or assistants in commit messages": the words themselves, when a surface follows
        # (with the text the tables know among them: "Claude or AI assistance")
        named = _named_words(tokens, k, end, surface)
        if named is not None:
            objects, stop = named
            notes.append(f"words not to write: {', '.join(o.text for o in objects)}")
    if not objects and names and all(_action_kind_of(a) == "git" for a in names) and k < stop \
            and tokens[k].low in _GIT_SITUATIONS:
        stop = k  # "never push on weekends": a situation, read as a qualifier
    if not objects and ctx.label and all(t.kind == PUNCT or t.low in _LABEL_REFERENCES for t in outside_parentheses(tokens[k:stop])):
        # "The real `.env` file — never read, edit, or print its values", "`x` — DO NOT EDIT (generated)":
        # the item's label is the object
        objects = [Obj(o.kind, o.text, o.role, dict(o.meaning), o.after_file_noun, o.glob, o.head) for o in ctx.label]
        notes.append("objects from the item's label")
    frame.objects = objects
    frame.phrase = _phrase(tokens, k, stop)
    if before_verb & {"just", "simply", "merely", "only"} and any(
            t.kind == WORD and t.low in ("and", "then") and action_at(tokens, m + 1, end) is None
            and m + 1 < end and tokens[m + 1].kind == WORD for m, t in enumerate(tokens[stop_verbs:end], start=stop_verbs)):
        frame.modality = ""
        frame.notes.append(f"'{words} just {surface} and ...': not doing it alone, not a ban of it")
        return frame
    frame.notes += notes
    _read_tail(tokens, stop, end, frame)
    if objects or stop > k:
        _read_joined(tokens, stop, end, modality, words, ctx, frame, surface)
    return frame


#: words that may end the object phrase of a guessed change ("Never symlink `vendor/` directly")
_GUESS_ENDS = frozenset(("by", "without", "unless", "except", "after", "before", "when", "while", "if", "for", "in",
                         "on", "at", "as", "or", "and", "manually", "directly", "yourself", "again", "ever"))


def guessed_change(tokens: list[Token], k: int, end: int) -> tuple[list[Obj], int, list[str]] | None:
    """"Never symlink `vendor/`", "Do not rewrite `CHANGELOG.md`", "never recompile anything under
    `dist/`": a verb the action table does not know at `k`, whose whole object is one or more paths
    written out (a directory or a file, not a code identifier), is read as a change to those paths.
    A verb of lexicon actions.UNCHANGED (forget, import, mock, ...) leaves the path as it is, a
    third-person form describes ("the script regenerates `x`"), and a path that qualifies a noun
    ("`internal/` classes") or a place where something is done ("re-export in `__init__.py`") is
    not the object: none of them is guessed. Returns (paths, where the phrase stopped, notes)."""
    word = tokens[k].low
    if match(tokens, k, "unchanged", end) is not None or not word.replace("-", "").isalpha() or (
            word.endswith("s") and not word.endswith("ss")):
        return None
    objects, stop, notes = read_objects(tokens, skip_adverbs(tokens, k + 1, end), end)
    if not objects or not all(o.kind in ("code", "path") and _names_path(o.text) and (
            o.role == "" or o.role in ("dir", "to") and o.after_file_noun) for o in objects):
        return None
    if stop < end and tokens[stop].kind == WORD and tokens[stop].low not in _GUESS_ENDS:
        return None  # "never flatten `src/` into one module": the words go on to say how, not what
    return objects, stop, notes


def _names_path(text: str) -> bool:
    """A span that names a file or directory: a slash, a glob or a file's ending (`vendor/`,
    `schema.json`, `.env*`), not an identifier (`useEffect`) or a command (`npm run x`)."""
    if " " in text.strip() or text.startswith("-") or any(c in text for c in "$()=;|&<>'\":"):
        return False
    last = text.rstrip("/").rsplit("/", 1)[-1]
    return "/" in text or any(c in text for c in "*?") or ("." in last and last.rsplit(".", 1)[1].isalnum())


def _read_joined(tokens: list[Token], stop: int, end: int, modality: str, words: str, ctx: Context, frame: Frame,
                 surface: str) -> None:
    """"Never start the dev server or run builds", "commit secrets, edit `node_modules/`, or push to
    `main`", "never rewrite history, force-push, or delete branches": a further verb phrase under
    the same cue, read into `frame.more`."""
    m = stop
    comma = m < end and tokens[m].kind == PUNCT and tokens[m].text == ","
    if comma:
        m += 1
    joined = m < end and tokens[m].kind == WORD and tokens[m].low in ("or", "and", "nor")
    listed = comma and not joined and m < end and action_at(tokens, m, end) is not None
    if not (joined or listed):
        return
    after_word = m + 1 if joined else m
    following = skip_adverbs(tokens, after_word, end)
    if action_at(tokens, following, end) is None:
        return
    more = read_action_frame(tokens, after_word, after_word, end, modality, words, ctx)
    if listed and "use" in more.actions and more.objects:
        # "Never edit `Cargo.toml`, use `cargo add` instead": what to do, not one more ban
        frame.alternatives += more.objects
        frame.notes.append(f"what to use instead: {', '.join(o.text for o in more.objects)}")
    elif more.objects or (more.actions and all(_action_kind_of(a) == "git" for a in more.actions)):
        more.notes.insert(0, f"joined to '{surface}' by '{tokens[m].low if joined else ','}'")
        frame.more.append(more)
        if more.qualifier and not frame.qualifier:
            # "never push commits or create PRs against the fork": the qualifier ends both
            frame.qualifier = more.qualifier
            frame.notes.append(f"'{more.qualifier}' ends the joined phrase: it narrows this verb too")


#: verbs whose object is a name to leave out of a text ("never mention Copilot"): with no surface
#: after them ("in commit messages"), the heading says where the text goes (resolve reads it)
_NAMING_VERBS = frozenset(("mention", "mentioning", "credit", "crediting", "name", "naming", "reference", "referencing"))
#: a name's generic tail: "LLM assistance", "Copilot usage" are mentions of the name itself
_MENTION_TAILS = frozenset(("assistance", "help", "involvement", "usage", "use", "tools", "tooling"))


def _named_words(tokens: list[Token], i: int, end: int, verb: str) -> tuple[list[Obj], int] | None:
    """A short list of names ("Claude, AI, or LLM assistance", "Copilot/GPT") not to write, ended by a
    preposition and a surface ("in commit messages"), or, after a naming verb, by the clause's end
    (the heading then says where). A second content verb continues the list ("credit Claude or mention
    AI assistance"); "mention that it was made by Claude or AI" names them after its last "by";
    words together are one name ("AI assistance" keeps the nouns table's meaning; "LLM assistance"
    is "llm"). The names as texts, and where the list stopped."""
    k = i
    if k < end and tokens[k].low == "that" and verb in _NAMING_VERBS:
        by = [m for m in range(k, end) if tokens[m].kind == WORD and tokens[m].low in ("by", "with", "using")]
        if not by:
            return None
        k = by[-1] + 1  # "mention that the changes were made by Claude": the names after "by"
    objects: list[Obj] = []
    phrase: list[Token] = []

    def close() -> None:
        words = [t.low for t in phrase]
        if len(words) > 1 and words[-1] in _MENTION_TAILS:
            words.pop()
        if words:
            objects.append(Obj("quote", " ".join(words),
                               meaning={"unquoted": True, "proper": all(t.text[:1].isupper() for t in phrase)}))
        phrase.clear()

    while k < end:
        tok = tokens[k]
        if tok.kind == PUNCT and tok.text in (",", "/"):
            close()
            k += 1
            continue
        if tok.kind == PUNCT and tok.text in (".", "!", ";", ":"):
            break
        if tok.kind != WORD:
            return None
        if tok.low == "anywhere" and verb in _NAMING_VERBS:
            break  # "never mention Claude anywhere in git output": the names end; the heading says where
        if tok.low in _CONJUNCTIONS or (not phrase and objects and "content" in _action_names(tok.low)):
            close()
            k += 1
            continue
        if tok.low in _PREPOSITIONS:
            break
        if tok.low in _STOPS or tok.low in _DETERMINERS or len(objects) >= 6 or len(phrase) >= 3:
            return None
        found = match(tokens, k, "nouns", end)
        if not phrase and found is not None and found[1][0] == "content":
            # "AI assistance": text the nouns table knows
            objects.append(Obj("noun", " ".join(t.low for t in tokens[k:found[0]]), meaning={"content": found[1][1]}))
            k = found[0]
            continue
        names = tok.low.split("/")
        if len(names) > 1 and all(n.isalnum() for n in names):
            close()  # "Copilot/GPT": two names
            objects += [Obj("quote", n, meaning={"unquoted": True, "proper": tok.text[:1].isupper()}) for n in names]
        else:
            phrase.append(tok)
        k += 1
    close()
    if not objects:
        return None
    if k < end and tokens[k].kind == WORD and tokens[k].low != "anywhere":
        if k + 1 >= end or not _surface_at(tokens[:end], skip_determiner(tokens, k + 1, end)):
            return None
        return objects, k
    if verb not in _NAMING_VERBS or not all(o.meaning.get("proper") or o.kind == "noun" for o in objects):
        return None  # "never add comments": a thing, not a name, with nothing to say where
    return objects, k


def _action_kind_of(name: str) -> str:
    return next((a.kind for a in _actions.ACTIONS if a.name == name), "")


def _phrase(tokens: list[Token], i: int, end: int) -> str:
    """The words of an object phrase before its first preposition ("test plan" in "add test plan to PR description")."""
    words: list[str] = []
    if i < end and tokens[i].kind == PUNCT and tokens[i].text == ":":
        i += 1  # "NEVER commit: ROM files": the colon hands the verb its object phrase
    for tok in tokens[i:end]:
        if tok.kind != WORD or tok.low in _PREPOSITIONS or tok.low in _STOPS:
            break
        if tok.low in _DETERMINERS and not words:
            continue
        words.append(tok.low)
    return " ".join(words)


def _read_tail(tokens: list[Token], stop: int, end: int, frame: Frame) -> None:
    """Purpose ("to build", "for linting"), alternatives, qualifiers and conditions after the objects."""
    n = len(tokens)
    _added_to_version_control(tokens, stop, frame)
    k = skip_adverbs(tokens, stop, end)
    # purpose: "any other command to build PyTorch", "commands provided via `spin` for linting"
    if k < end and tokens[k].kind == WORD and tokens[k].low in ("to", "for"):
        purpose = match(tokens, k + 1, "nouns", end)
        verb = match(tokens, k + 1, "actions", end)
        if purpose is not None and purpose[1][0] == "category":
            frame.purpose = purpose[1][1]
        elif verb is not None:
            category = _category_of_verb(" ".join(t.low for t in tokens[k + 1 : verb[0]]))
            if category:
                frame.purpose = category
    # substitutions: "instead of X", "(not X)", "rather than X", "over X"
    for m in range(stop, n):
        tok = tokens[m]
        if tok.kind != WORD:
            continue
        if tok.low in ("instead", "rather") and m + 1 < n and tokens[m + 1].low in ("of", "than"):
            alts, _, _ = read_objects(tokens, m + 2, n)
            frame.notes.append(f"the alternative it names: {join(tokens[m + 2:])}")
            frame.alternatives += alts
            break
    # a relative clause right after the object: "never push code that fails the tests" is some pushes
    if k == stop and k < end and frame.phrase and tokens[k].kind == WORD and tokens[k].low in ("that", "which", "who"):
        frame.qualifier = " ".join(t.low for t in tokens[k:end] if t.kind == WORD)
    # qualifiers: "on main", "in watch mode", "against production", "on Git commits"
    if k < end and tokens[k].kind == WORD and tokens[k].low in _markers.QUALIFIERS and (frame.objects or (
            frame.actions and all(_action_kind_of(a) == "git" for a in frame.actions))):
        rest = [t for t in tokens[k + 1 : end] if t.kind != PUNCT or t.text not in ",;"]
        phrase = " ".join(t.low for t in rest[:6])
        then = then_at(tokens, k + 1, end)
        on = k
        if tokens[k].low in ("while", "when") and k + 1 < end and tokens[k + 1].kind == WORD and tokens[k + 1].low == "on":
            on = k + 1  # "never run `git commit` while on main": the branch checked out
        branch = match(tokens, skip_determiner(tokens, on + 1, end), "nouns", end)
        if then is not None and branch is not None and branch[1][0] == "surface" and branch[0] > then[0]:
            then = None  # "in commit messages": the text, not the commit
        if then is not None and tokens[k].low == "after":
            then = None  # "never rebase after merge": a situation, not the action the ban is about
        if then is not None:
            frame.qualifier_action = then[1]
            frame.notes.append(f"'{tokens[k].low} {phrase}' names the action the object applies to")
        elif branch is not None and branch[1][0] == "branch" and on > k and not _git_action_code(frame):
            frame.qualifier = f"{tokens[k].low} {phrase}"  # "never run `npm test` while on main": some runs
        elif branch is not None and branch[1][0] == "branch" and tokens[on].low in ("to", "into", "on", "onto"):
            frame.targets.append(branch[1][1])
            if on > k and (action := _git_action_code(frame)):
                # "NEVER run `git commit` while on main": committing to it
                frame.actions, frame.objects = [action], [o for o in frame.objects if o.kind != "code"]
        elif branch is not None and branch[1][0] == "surface":
            frame.surfaces.append(branch[1][1])
            after = branch[0]
            while after + 1 < end and (tokens[after].low in _CONJUNCTIONS or tokens[after].text == ","):
                # "in commit messages or PR descriptions": each text named
                more = match(tokens, skip_determiner(tokens, after + 1, end), "nouns", end)
                if more is None or more[1][0] != "surface":
                    break
                frame.surfaces.append(more[1][1])
                after = more[0]
        elif branch is not None and branch[1][0] == "pronoun":
            frame.notes.append(f"'{tokens[k].low} {phrase}' refers back; it does not narrow the rule")
        elif phrase:
            frame.qualifier = f"{tokens[k].low} {phrase}"
            words_after = phrase.split()
            if tokens[k].low in ("in", "inside", "within", "from") and any(w in _IN_CODE_NOUNS for w in words_after[:3]):
                frame.in_code = True
                frame.notes.append(f"'{frame.qualifier}': the object is used inside code, not run")
    for obj in frame.objects:
        if obj.kind == "branch" and obj.role in ("to", "on"):
            frame.targets.append(obj.meaning.get("branch", "main"))
        elif obj.kind == "code" and _branch_name(obj.text) and (
                obj.role in ("to", "on") or (obj.role == "" and ("push" in frame.actions or "work-on" in frame.actions)
                                             and obj.text in _BRANCHES)
                # "do not push changes under `claude/*` branches": the branches named by a glob
                or (obj.role == "dir" and "*" in obj.text and _names_branches(frame))):
            if any(a in ("commit", "push", "merge", "edit", "work-on") for a in frame.actions):
                frame.targets.append(obj.text)
        if obj.kind == "noun" and "surface" in obj.meaning and obj.role in ("to", "dir", "on", "for", "from"):
            frame.surfaces.append(obj.meaning["surface"])
    if "push" in frame.actions:
        frame.remotes = _pushed_remotes(frame, tokens, end)
        frame.targets = [t for t in frame.targets if t not in frame.remotes]
        spared = _spared_branches(tokens, 0) if frame.modality in (BAN, AVOID) else []
        if spared:
            # "never push to any branch other than `dev`": the pushes that may land are those
            frame.targets, frame.other = spared, True
            frame.notes.append(f"the branches it spares: {', '.join(spared)}")
        frame.targets = [_without_remote(t) for t in frame.targets]
    if "merge" in frame.actions and frame.targets:
        frame.sources = _merged_sources(frame, tokens, end)
    condition, text = read_conditions(tokens, stop, n)
    if condition and "push" in frame.actions and frame.other and frame.targets and text.lower().startswith(
            _markers.SPARING_WORDS):
        condition = ""  # "except `feature-*`": the branches spared, not a moment the rule waits for
    if condition:
        frame.condition, frame.condition_text = condition, text
    if frame.condition != "permission":
        own = _on_your_own(tokens)
        if own:
            frame.condition, frame.condition_text = "permission", own
    settle(frame)


def _on_your_own(tokens: list[Token]) -> str:
    """"automatically", "proactively", "on your own" anywhere in the clause: only when asked."""
    words = " " + " ".join(t.low for t in tokens if t.kind == WORD) + " "
    return next((w for w in _markers.ON_YOUR_OWN if f" {w} " in words), "")


#: words that start a situation after an object-less git verb ("never amend commits after hook failures")
_SITUATIONS = frozenset(("after", "when", "whenever", "while", "during", "if"))

_SURFACE_ACTION = {"commits": "commit", "commit": "commit", "git commits": "commit", "commit messages": "commit",
                   "commit message": "commit", "pushes": "push"}


def settle(frame: Frame) -> Frame:
    """Objects that are really the frame's purpose ("for linting") or surface ("on Git commits"),
    or the alternative an aside names ("(use `x` instead)")."""
    kept: list[Obj] = []
    for obj in frame.objects:
        if obj.role == "instead":
            frame.alternatives.append(obj)
            continue
        meaning = obj.meaning
        if obj.role in ("for", "to") and obj.kind == "noun" and "category" in meaning and (
                kept or frame.modality in (ONLY, REQUIRE) or frame.other) and "surface" not in meaning:
            frame.purpose = frame.purpose or meaning["category"]
            frame.notes.append(f"purpose: {obj.text} ({meaning['category']})")
            continue
        if obj.kind == "noun" and "surface" in meaning and obj.role in ("on", "for", "to", "dir", "from", "with"):
            frame.surfaces.append(meaning["surface"])
            action = _SURFACE_ACTION.get(obj.text)
            if action and any(o.kind in ("code", "flag") and o.text.startswith("-") for o in kept):
                frame.qualifier_action = action
                frame.notes.append(f"'{obj.text}' names the action the flag applies to")
            continue
        if obj.kind == "noun" and "other" in meaning:
            frame.other = True
            continue
        kept.append(obj)
    frame.objects = _confined(frame, kept)
    return frame


def _confined(frame: Frame, objects: list[Obj]) -> list[Obj]:
    """"Don't touch anything outside `packages/foo`", "Only edit files in `src/`": a change (edit,
    delete, create) confined to the paths named, so the rule is about every other path. Paths after
    "outside" for any other action are dropped: they are not what the rule is about."""
    outside = [o for o in objects if o.role == "outside"]
    changes = bool(frame.actions) and all(_action_kind_of(a) in ("write", "create") for a in frame.actions)
    if outside and not changes:
        frame.notes.append(f"'outside {outside[0].text}' means every other path, which a {frame.verb or 'such'} check cannot name")
        return [o for o in objects if o.role != "outside"]
    if outside:
        frame.confine = True
        frame.notes.append(f"confined to {', '.join(o.text for o in outside)}: the rule is about every other path")
        return outside
    if frame.modality == ONLY and changes and any(o.kind in ("code", "path") and o.role in ("dir", "") for o in objects):
        frame.confine = True
        frame.notes.append(f"'only' {frame.verb} in {', '.join(o.text for o in objects)}: the rule is about every other path")
    return objects


_BRANCHES = frozenset(("main", "master", "develop", "dev", "production", "prod", "staging", "release", "trunk", "gh-pages"))


def named_remotes(objects: list[Obj]) -> list[str]:
    """Well-known remote names among a push rule's objects ("never push to `upstream`")."""
    return [o.text for o in objects if o.kind == "code" and o.text in _markers.REMOTE_NAMES]


def _pushed_remotes(frame: Frame, tokens: list[Token], end: int) -> list[str]:
    """The remotes a push rule names: a well-known name, or any name just before the word remote
    ("the upstream remote", "the `mirror` remote")."""
    names = named_remotes(frame.objects)
    for k in range(1, end):
        before = tokens[k - 1]
        if tokens[k].low == "remote" and before.kind in (WORD, CODE) and before.low not in _DETERMINERS | {"git"} \
                and not (before.kind == WORD and before.low in _PREPOSITIONS):  # "push to remote": any remote
            names.append(before.text if before.kind == CODE else before.low)
    return list(dict.fromkeys(names))


def _merged_sources(frame: Frame, tokens: list[Token], end: int) -> list[str]:
    """What a merge rule says is merged into its target ("never merge `upstream/main` into `main`":
    upstream/main; "do not merge upstream into main": any branch of that remote), so that the
    rule stops that merge, not every merge into the target."""
    names = [o.text for o in frame.objects if o.kind == "code" and not o.role and _branch_name(o.text)
             and o.text not in frame.targets]
    for k in range(end - 1):
        # a well-known remote written as a word, right before "into" / "to"
        if tokens[k].kind == WORD and tokens[k].low in _markers.REMOTE_NAMES and tokens[k + 1].low in ("into", "to", "directly"):
            names.append(tokens[k].low + "/*")
    return list(dict.fromkeys(names))


def _file_objects(objects: list[Obj]) -> list[Obj]:
    """The objects that name files (a path, a kind of file, a span that looks like one), or none
    when the clause is about text ("`Co-Authored-By` trailers")."""
    if any(o.kind == "noun" and "content" in o.meaning for o in objects):
        return []
    return [o for o in objects if o.kind == "path" or (o.kind == "noun" and "path" in o.meaning) or (
        o.kind == "code" and any(c in o.text for c in "./*") and " " not in o.text)]


def _added_to_version_control(tokens: list[Token], stop: int, frame: Frame) -> None:
    """"Do not add `.env` to git", "never add build outputs to version control", "No `*.log` files
    in commits": adding files there, or files being there, is staging them (lexicon
    markers.VERSION_CONTROL_PLACES), not creating them."""
    adding = "create" in frame.actions and (frame.verb.split() or [""])[0] in ("add", "adding")
    if not (adding or frame.actions == ["bare"]) or not _file_objects(frame.objects):
        return
    links = ("to", "into") if adding else ("in",)
    for k in range(len(tokens) - 1):
        if tokens[k].kind != WORD or tokens[k].low not in links:
            continue
        found = match(tokens, k + 1, "vcs-places")
        if found is None or (found[0] < len(tokens) and tokens[found[0]].kind == WORD):
            continue  # "add it to git hooks": a place inside the repository's tooling
        frame.actions = ["stage"]
        frame.objects = [o for o in frame.objects if not (o.kind == "program" and o.text == "git")]
        frame.notes.append(f"'{join(tokens[k:found[0]])}': staging")
        return


def _kept_out(tokens: list[Token]) -> Frame | None:
    """"Keep `.env` out of git", "keep build outputs out of version control": a ban on staging them."""
    if not tokens or tokens[0].kind != WORD or tokens[0].low != "keep":
        return None
    for k in range(1, len(tokens) - 2):
        if tokens[k].low == "out" and tokens[k + 1].low == "of" and match(tokens, k + 2, "vcs-places") is not None:
            objects = _file_objects(read_objects(tokens, 1, k)[0])
            if not objects:
                return None
            return Frame(BAN, "keep out of", actions=["stage"], verb="stage", objects=objects, start=tokens[0].start,
                         text=join(tokens),
                         notes=[f"'keep ... {join(tokens[k:])}': {', '.join(o.text for o in objects)} must not be staged"])
    return None


def _spared_branches(tokens: list[Token], start: int) -> list[str]:
    """The branches named after "other than", "except", ... (lexicon markers.SPARING_WORDS)."""
    for k in range(start, len(tokens)):
        found = match(tokens, k, "sparing")
        if found is not None:
            return [t.text for t in tokens[found[0]:] if t.kind == CODE and _branch_name(t.text)]
    return []


def _without_remote(branch: str) -> str:
    """`origin/feature-*` names the remote's branch `feature-*`: a push names it without the remote."""
    head, _, rest = branch.partition("/")
    return rest if rest and head in _markers.REMOTE_NAMES else branch


def _names_branches(frame: Frame) -> bool:
    return any(o.kind == "noun" and o.meaning.get("thing") == "branch" for o in frame.objects)


def _branch_name(text: str) -> bool:
    """`main`, `feature/x`, and the globs that name a family of branches (`claude/*`, `feature-*`)."""
    return any(c.isalnum() for c in text) and " " not in text and not text.startswith("-") and (
        "." not in text.rsplit("/", 1)[-1]) and all(c.isalnum() or c in "-_/*" for c in text)


#: one-word branch names (lexicon.nouns.BRANCH_NOUNS) and the branch each means
_BRANCH_NAMES: dict[str, str] = {w: ("main" if w == "trunk" else w) for w in _nouns.BRANCH_NOUNS if " " not in w}


def _either(tokens: list[Token]) -> bool:
    """Code spans joined by "or" ("run `make lint` or `make check`"): alternatives, not a list."""
    codes = [k for k, t in enumerate(tokens) if t.kind == CODE]
    if len(codes) < 2:
        return False
    gaps = [tokens[a + 1 : b] for a, b in zip(codes, codes[1:])]
    return all(gap and all(t.kind == WORD and t.low == "or" or t.kind == PUNCT and t.text in (",", "/") for t in gap)
               and any(t.kind == WORD and t.low == "or" or t.text == "/" for t in gap) for gap in gaps)


def _git_action_code(frame: Frame) -> str:
    """The git action a frame's one code object does (`git commit -m x`: commit), or ""."""
    codes = [o.text.split() for o in frame.objects if o.kind == "code"]
    if len(codes) == 1 and codes[0][:1] == ["git"] and codes[0][1:2] and codes[0][1] in ("commit", "push", "merge"):
        return codes[0][1]
    if not codes and frame.actions and all(a in ("commit", "push", "merge") for a in frame.actions):
        return frame.actions[0]
    return ""


def skip_determiner(tokens: list[Token], i: int, end: int) -> int:
    while i < end and tokens[i].kind == WORD and tokens[i].low in _DETERMINERS:
        i += 1
    return i


def _category_of_verb(verb: str) -> str:
    for category in _categories.CATEGORIES:
        if verb in category.words:
            return category.name
    return {"build": "build", "lint": "lint", "test": "test", "deploy": "deploy", "publish": "publish",
            "format": "format", "typecheck": "typecheck", "create releases": "publish"}.get(verb, "")


_ONLY_WHEN = frozenset(("when", "if", "for", "with", "after", "in", "on", "via", "through", "where", "while", "once", "as"))
#: "push only to ...", "commit only into ...": after a git verb, "only" limits where it lands
_ONLY_WHERE = frozenset(("to", "into", "onto"))


def _only_after_git_verb(tokens: list[Token], i: int, j: int, end: int, frame: Frame) -> None:
    """"Push to `claude/*` branches only", "Push only to your own feature branch": "only" after a
    git verb that lands on a branch (push, commit, merge) limits the branches it may land on; the
    objects are on either side of the cue."""
    before = action_at(tokens, 0, i) or action_at(tokens, skip_adverbs(tokens, 0, i), i)
    if before is None or not any(a in ("push", "commit", "merge") for a in before[1]):
        return
    trailing = all(t.kind == PUNCT for t in tokens[j:end])
    if not trailing and not (tokens[j].kind == WORD and tokens[j].low in _ONLY_WHERE):
        return
    objects, _, _ = read_objects(tokens, before[0], i)
    if not trailing:
        objects += read_objects(tokens, j, end)[0]
    frame.actions, frame.verb, frame.objects = before[1], before[2], objects
    _read_tail(tokens, end, len(tokens), frame)
    frame.notes.append("'only' after a git verb: the branches it may land on")


def read_requirement(tokens: list[Token], i: int, j: int, end: int, modality: str, words: str, ctx: Context) -> Frame:
    """"Always use X for Y", "branch names must start with `x`", "use X only when asked",
    "only use X for linting", "always commit as Claude"."""
    frame = Frame(modality, words)
    low = [t.low for t in tokens]
    text = " ".join(low)
    codes = [t for t in tokens if t.kind == CODE]
    # branch names: "Branch names must start with `claude/`", "Always prefix branch names with `x-`"
    if "branch" in text and any(w in text for w in _BRANCH_FORM_WORDS) and _branch_forms(tokens):
        frame.requirement = "branch"
        frame.objects = _branch_forms(tokens)
        frame.notes.append("branch naming rule")
        return frame
    k = skip_adverbs(tokens, j, end)
    found = action_at(tokens, k, end)
    if found is None and ctx.modality == ASK and ctx.item:
        return frame
    if found is None and k < end and tokens[k].low in ("prefix", "prepend", "go") and (run_under := runner_rule(tokens, k, end)):
        # "Always prefix commands with `fvm`", "always go through `uv run`": a verb that only says how to run
        run_under.notes.insert(0, f"'{words}' with a runner")
        return run_under
    if modality == ONLY and (alone := _only_tool(tokens, i, j, end)) is not None:
        alone.notes.insert(0, f"'{words}' with one tool of a job")
        return alone
    if found is None and k < end and tokens[k].low in _markers.PREFER_WORDS and (swapped := substitution(tokens, k)) is not None:
        swapped.notes.insert(0, f"'{words} {tokens[k].low}': a substitution")
        return swapped  # "Always prefer `rg` over `grep`"
    if found is None:
        # "Use `X` only when ... with explicit user consent": the cue follows the object
        # ... but not "use `x` to build only the main binary": "only" must say when, or what for
        if modality == ONLY and i > 0 and j < end and tokens[j].kind == WORD and tokens[j].low in _ONLY_WHEN:
            before = action_at(tokens, 0, i) or action_at(tokens, skip_adverbs(tokens, 0, i), i)
            if before is not None:
                objects, _, _ = read_objects(tokens, before[0], i)
                frame.actions, frame.verb, frame.objects = before[1], before[2], objects
                _read_tail(tokens, j, len(tokens), frame)
                frame.notes.append("'only' after the object: the rest of the sentence says when")
        elif modality == ONLY and i > 0:
            _only_after_git_verb(tokens, i, j, end, frame)
        return frame
    stop_verbs, names, surface = found
    if modality in (REQUIRE, ONLY) and ("use" in names or "run" in names):
        run_under = runner_rule(tokens, k, end)
        if run_under is not None:
            run_under.notes.insert(0, f"'{words}' with a runner")
            return run_under
    if "use" in names or "run" in names:
        swapped = substitution(tokens, k)
        if swapped is not None:
            swapped.notes.insert(0, f"'{words}' with a substitution")
            return swapped
    elif modality == REQUIRE and (avoided := _instead_of_git_action(tokens, k, end)) is not None:
        avoided.notes.insert(0, f"'{words}' with a git action not to do instead")
        return avoided
    if modality == REQUIRE and "use" in names:
        preferred = preferred_tool(tokens, k, end)
        if preferred is not None:
            preferred.notes.insert(0, f"'{words}' with the project's tool")
            return preferred
    frame.actions = names
    frame.verb = surface
    objects, stop, notes = read_objects(tokens, skip_adverbs(tokens, stop_verbs, end), end)
    frame.objects = objects
    frame.notes += notes
    _read_tail(tokens, stop, len(tokens), frame)
    if frame.confine and frame.modality == ONLY and any(t.kind in (WORD, CODE, QUOTE) for t in tokens[stop:end]):
        # "Only modify `config.ts` to change the settings", "only touch `package.json` if you add a
        # dependency": the limit holds for some task or moment, not for every change
        frame.confine = False
        frame.notes.append(f"'only' is narrowed by '{join(tokens[stop:end])}': not a limit on every change")
    if "commit" in names and any(t.low == "as" for t in tokens[stop_verbs:end]):
        frame.requirement = "commit-form"
        frame.notes.append("commits must be made in a prescribed form ('commit as')")
    elif ("commit" in names or "use" in names or any(o.kind == "code" and o.text.split()[1:2] and o.text.split()[1] in names
                                                     for o in objects)) and _commit_options(objects):
        # "Always commit with `git commit -s`", "always use `git commit -S`", "always pull with `git
        # pull --rebase`": every call needs its options
        frame.requirement = "arguments"
        frame.notes.append("commits must carry the options of the form the rule names")
    return frame


def _commit_options(objects: list[Obj]) -> bool:
    """A `git commit` form among `objects` with options of its own (not only a message or -a), or
    a command with an option that sets how it always runs (lexicon.programs.HABIT_OPTIONS:
    `git pull --rebase`)."""
    for obj in objects:
        words = obj.text.split() if obj.kind == "code" else []
        if words[:2] == ["git", "commit"] and any(w.startswith("-") and w not in ("-m", "--message", "-a", "--all", "-am")
                                                   for w in words[2:]):
            return True
        if any(words[:len(c.split())] == c.split() and set(options) & set(words) for c, options in _programs.HABIT_OPTIONS):
            return True
    return False


#: words that make a sentence about branches a naming rule ("Branch names must start with `x/`")
_BRANCH_FORM_WORDS = ("start with", "begin with", "prefix", "prefixed with", "named", "naming", "branch names follow",
                      "branch names should follow", "branch names must follow", "branch names use", "name branches",
                      "branches follow", "branch name format", "branch format")


def _branch_forms(tokens: list[Token]) -> list[Obj]:
    """The branch name forms a naming rule allows: every code span outside an example
    ("`feature/<name>` or `fix/<name>`", "prefixed: `feat/`, `fix/`, `chore/`"); a rule that
    lists several allows any of them."""
    forms: list[Obj] = []
    k = 0
    while k < len(tokens):
        if tokens[k].kind == PUNCT and tokens[k].text == "(" and match(tokens, k + 1, "examples") is not None:
            k = next((m for m in range(k + 1, len(tokens)) if tokens[m].kind == PUNCT and tokens[m].text == ")"), len(tokens))
            continue  # "(e.g., `feature/add-auth`)": names that fit, not the form
        if tokens[k].kind == CODE and " " not in tokens[k].text.strip():
            forms.append(Obj("code", tokens[k].text))
        k += 1
    return forms


def _labels_own_instruction(tokens: list[Token], first: int) -> bool:
    """"- Branch naming: Use short names like `feat/x`" under "**Never change main directly:**": the
    item is a label over an instruction of its own, not one more object of the intro's ban."""
    colon = next((k for k in range(first, len(tokens)) if tokens[k].kind == PUNCT and tokens[k].text == ":"), None)
    if colon is None or colon + 1 >= len(tokens):
        return False
    after = tokens[colon + 1:]
    return _imperative(after, len(after))


_RUNNER_PREPOSITIONS = frozenset(("through", "via", "with", "using", "under"))
#: prepositions that name a runner only before a container ("inside the `app` container", "in Docker")
_CONTAINER_PREPOSITIONS = frozenset(("in", "inside", "within", "into"))
#: the words of a clause that make a required runner a ban on the bare program ("MUST run through
#: Docker Compose", "only run artisan inside the container"); "always" and "use" leave it a warning
_STRICT_RUNNER_WORDS = frozenset(("must", "only", "shall", "mandatory", "required", "exclusively"))


def _container_at(tokens: list[Token], k: int, end: int) -> bool:
    """A container named from `k` on ("the `app` container", "\"coolify\" container", "Docker Compose",
    "the devcontainer"): within three words, a word of lexicon programs.CONTAINER_WORDS."""
    for m in range(k, min(end, k + 4)):
        tok = tokens[m]
        if tok.kind == WORD and tok.low in _programs.CONTAINER_WORDS:
            return True
        if tok.kind == PUNCT and tok.text not in "\"'":
            return False
    return False


def _runner_preposition(tokens: list[Token], first: int, end: int) -> int | None:
    """Where the runner is introduced: "through", "via", "with", ... or "in"/"inside" before a container."""
    for m in range(first, end - 1):
        tok = tokens[m]
        if tok.kind == WORD and (tok.low in _RUNNER_PREPOSITIONS
                                 or (tok.low in _CONTAINER_PREPOSITIONS and _container_at(tokens, m + 1, end))):
            return m
    return None


def _governed(tokens: list[Token]) -> list[Obj] | None:
    """The programs a runner is for, as written before it: programs ("pytest", `rake`), languages
    and ecosystems ("Python commands", "PHP/Composer/Artisan commands": lexicon
    programs.ECOSYSTEM_PROGRAMS), with only words such as "all", "commands", "tasks" around them.
    [] when nothing but those words is said ("run everything through ..."), None for anything else."""
    out: list[Obj] = []
    for tok in tokens:
        if tok.kind == PUNCT or tok.low in _CONJUNCTIONS or tok.low in _DETERMINERS or tok.low in _RUN_SUBJECT_WORDS:
            continue
        if tok.kind not in (WORD, CODE):
            return None
        for part in tok.low.strip("*").split("/"):
            if part in _programs.ECOSYSTEM_PROGRAMS:
                out += [Obj("program", c.split()[0], meaning={"command": c}) for c in _programs.ECOSYSTEM_PROGRAMS[part]
                        if not any(o.meaning.get("command") == c for o in out)]
            elif part in _programs.KNOWN_PROGRAMS:
                out.append(Obj("program", part))
            elif part:
                return None
    return out


def runner_rule(tokens: list[Token], first: int, end: int) -> Frame | None:
    """"Run Python through `uv run`", "always run pytest via poetry", "Run artisan commands inside
    the `app` container", "Prefix `flutter` and `dart` with `fvm`", "Always use `uv run`": the
    programs named (or, when none is, those the document runs under the runner) are to be run
    under it, so running them bare is discouraged (a warning whose reason names the runner; a ban
    when the clause says must / only and names them). None when the sentence is not of that form."""
    k = skip_adverbs(tokens, first, end)
    if k < end and tokens[k].kind == WORD and tokens[k].low in ("prefix", "prepend"):
        return _prefixed(tokens, k, end)
    if k + 2 < end and tokens[k].low == "go" and tokens[k + 1].low in ("through", "via"):
        return _run_under(tokens, tokens[k + 1], tokens[k + 2:end], [])  # "always go through `uv run`"
    found = action_at(tokens, first, end)
    passive = _passive_run(tokens, first, end) if found is None else None
    if passive is not None:
        # "All python commands should be run via `uv run`": the programs are the subject
        verb_end, named = passive
        at = verb_end if verb_end < end - 1 and (tokens[verb_end].low in _RUNNER_PREPOSITIONS or (
            tokens[verb_end].low in _CONTAINER_PREPOSITIONS and _container_at(tokens, verb_end + 1, end))) else None
        if at is None:
            return None
    else:
        if found is None or not {"run", "use"} & set(found[1]):
            return None
        at = _runner_preposition(tokens, found[0], end)
        if at is None:
            return _runner_for(tokens, skip_adverbs(tokens, found[0], end), end) if "use" in found[1] else None
        named = tokens[skip_adverbs(tokens, found[0], at):at]
    # "Always run `pytest` via `uv run`": a known program alone in backticks is that program
    programs = _governed(named)
    if programs is None:
        return None
    return _run_under(tokens, tokens[at], tokens[at + 1:end], programs)


def _prefixed(tokens: list[Token], k: int, end: int) -> Frame | None:
    """"Prefix `flutter` and `dart` commands with `fvm`", "Always prefix commands with `fvm`",
    "Prefix every package install with `sfw`": the verb says the code span after "with" is run first."""
    at = next((m for m in range(k + 1, end - 1) if tokens[m].low == "with" and tokens[m + 1].kind == CODE), None)
    if at is None:
        return None
    programs = _governed(tokens[k + 1:at])
    if programs is None:
        return None
    return _run_under(tokens, tokens[at], tokens[at + 1:end], programs, prefix=True)


def _run_under(tokens: list[Token], marker: Token, after: list[Token], programs: list[Obj], *, prefix: bool = False) -> Frame | None:
    """The frame of programs to be run under the runner `after` opens with: a runner the shell sees
    through (`uv run`, `bundle exec`, `docker compose exec`), a container named in words ("the `app`
    container", "Docker Compose"), a prefix tool (`fvm`) or the project's own script (`bin/docker`).
    No programs: those the document runs under it (resolved from the document's commands)."""
    if _container_at(after, 0, len(after)) and not (after and after[0].kind == CODE and "/" in after[0].text):
        if not programs:
            return None  # "Run in Docker (for untrusted packages)": which commands, the words do not say
        runner = "docker compose exec"
    elif after and after[0].kind in (CODE, WORD):
        runner = after[0].text
    else:
        return None
    words = runner.split()
    head = words[0].rsplit("/", 1)[-1].lower() if words else ""
    known = head in _programs.WRAPPER_RUNNERS or head in _programs.PREFIX_RUNNERS or (prefix and bool(_PROGRAM_NAME.fullmatch(head)))
    if not (known or (after[0].kind == CODE and "/" in words[0])) or any(o.text == head for o in programs):
        return None
    if not programs and after[0].kind == CODE and len(words) > 1:
        # "Always run tests with `uv run pytest`": the span itself says which program runs under it
        runner, programs = _wrapped(runner)
        words = runner.split()
    # "..., never directly": the bare run banned outright
    strict = bool(programs) and any(t.kind == WORD and (t.low in _STRICT_RUNNER_WORDS or (
        t.low in _programs.BARE_RUN_WORDS and m > 0 and tokens[m - 1].low in ("never", "not"))) for m, t in enumerate(tokens))
    objects = programs or [Obj("program", head, meaning={"under": head})]
    said = ", ".join(o.meaning.get("command", o.text) for o in programs) or f"the programs run under {runner}"
    frame = Frame(BAN if strict else AVOID, marker.low, actions=["use"], verb="use", objects=objects,
                  alternatives=[Obj("code", runner)],
                  notes=[f"run {said} {marker.low} {runner}: bare runs are {'not allowed' if strict else 'discouraged'}"])
    frame.start = tokens[0].start
    frame.runner = runner
    return frame


def _wrapped(written: str) -> tuple[str, list[Obj]]:
    """`uv run pytest -x` as the runner (`uv run`) and the program it runs (pytest; `python -m
    pytest` for a module run by the interpreter); the whole span and no program when it runs none."""
    words = written.split()
    head = words[0].rsplit("/", 1)[-1].lower()
    at = 1 + (len(words) > 1 and words[1] in RUNNER_SUBCOMMANDS.get(head, ()))
    if head in ("docker", "docker-compose", "podman") or at >= len(words) or words[at].startswith("-"):
        return written, []
    program = words[at].rsplit("/", 1)[-1]
    if program in ("python", "python3") and words[at + 1:at + 2] == ["-m"] and at + 2 < len(words):
        return " ".join(words[:at]), [Obj("program", program, meaning={"command": f"{program} -m {words[at + 2]}"})]
    if not _PROGRAM_NAME.fullmatch(program):
        return written, []
    return " ".join(words[:at]), [Obj("program", program)]


def _runner_for(tokens: list[Token], first: int, end: int) -> Frame | None:
    """"Always use `bundle exec` for rake tasks", "use `uv run` for Python commands", "Always use
    `uv run`", "Always prioritize `uv run` for consistent environments": a runner in backticks with
    its run subcommand (or a prefix tool), then "for" and the programs it is to run, or no programs
    (those the document runs under it)."""
    if first >= end or tokens[first].kind != CODE or not runner_span(tokens[first].text):
        return None
    rest = first + 1
    if rest < end and tokens[rest].low == "for":
        programs = _governed(tokens[rest + 1:end])
        if programs is None:
            programs = []  # "for consistent environments": why, not what for
    elif rest < end and tokens[rest].low == "to" and rest + 1 < end and tokens[rest + 1].low in ("run", "execute", "invoke", "call"):
        programs = _governed(tokens[rest + 2:end]) or []
    elif all(t.kind == PUNCT or t.low in ("prefix", "prefixes", "always", "everywhere", "instead") for t in tokens[rest:end]):
        programs = []
    else:
        return None
    return _run_under(tokens, tokens[rest] if rest < end else tokens[first], tokens[first:end], programs)


def runner_span(text: str) -> bool:
    """A code span that is a runner with its run subcommand, alone or with the program it runs (`uv
    run`, `bundle exec rspec`, `poetry run pytest -x`), or a prefix tool alone (`fvm`)."""
    words = text.split()
    head = words[0].rsplit("/", 1)[-1].lower() if words else ""
    runs = RUNNER_SUBCOMMANDS.get(head)
    return (len(words) >= 2 and runs is not None and words[1] in runs) or (len(words) == 1 and head in _programs.PREFIX_RUNNERS)



#: what may stand around the programs named as the subject of "... should be run via `uv run`"
_RUN_SUBJECT_WORDS = frozenset(("all", "any", "every", "commands", "command", "scripts", "script", "invocations", "calls",
                                "should", "must", "always", "need", "needs", "to", "have", "has", "are", "is", "tasks",
                                "task", "everything", "anything", "code", "tools", "tooling", "invocation", "programs",
                                "be", "go", "goes", "run", "only", "executed", "invoked", "tests", "test", "suite"))


def _passive_run(tokens: list[Token], first: int, end: int) -> tuple[int, list[Token]] | None:
    """"All python commands should be run via ...", "pytest must always be invoked through ...", "All
    npm commands go through `docker compose exec web`": where the verb ends and the words of its subject."""
    be = next((m for m in range(first, end - 1) if tokens[m].low == "be" and tokens[m + 1].low in ("run", "executed", "invoked",
                                                                                                   "called", "launched")), None)
    if be is None:
        # "All Ruby commands MUST run through `bin/docker`": a modal, then "run" itself; "... go through ...": the verb alone
        be = next((m - 1 for m in range(first + 1, end - 1) if (tokens[m].low == "run"
                   and tokens[m - 1].low in ("must", "should", "shall", "always", "only"))
                   or (tokens[m].low in ("go", "goes") and tokens[m + 1].low in ("through", "via"))), None)
        if be is None:
            return None
    named = tokens[first:be]
    if _governed(named) is None:
        return None
    return be + 2, named


_PURPOSE_WORDS = frozenset(("for", "to", "as", "when", "in", "with"))


#: a version written after a tool's name ("pnpm 9", "yarn v4", "node 20.x", "python 3.12+")
_VERSION_WORD = re.compile(r"v?\d+(?:\.[\dx*]+)*\+?")


def _project_uses(tokens: list[Token], first: int, end: int) -> int | None:
    """"This project uses pnpm", "We use uv as the package manager", "Uses **bun**.", "All builds
    use `./mvnw`": the index of what the project (lexicon markers.PROJECT_SUBJECTS), the job
    (programs.JOB_NOUNS) or no subject says it uses, None for any other subject. The statement may
    follow "and" in the sentence ("It is a monorepo and we use pnpm")."""
    starts = [first] + [m + 1 for m in range(first, end - 1) if tokens[m].low in ("and", "so") or tokens[m].text == ";"]
    for start in starts:
        for k in range(start, min(end, start + 4)):
            if tokens[k].kind == WORD and tokens[k].low in _markers.PROJECT_USE_VERBS:
                subject = [t.low for t in tokens[start:k] if t.kind == WORD]
                if not subject and start == first and tokens[k].low in _markers.SUBJECTLESS_USE_VERBS:
                    # "Uses **bun**.", "Uses pnpm for JS dependencies": the tool alone, or for its job
                    # (not "Uses npm to fetch plugins")
                    named = k + 2 if k + 1 < end and tokens[k + 1].kind in (WORD, CODE) else end
                    if named >= end or tokens[named].kind == PUNCT or (tokens[named].low == "for" and _names_job(tokens, named + 1, end)):
                        return k + 1
                    return None
                if " ".join(subject) in _markers.PROJECT_SUBJECTS or _job_subject(subject):
                    return k + 1
                break
    return None


def _job_label_end(tokens: list[Token], first: int, end: int) -> int | None:
    """Where a label ends: its colon ("Package manager: pnpm"), or the cell border of a table row
    ("Package manager | pnpm")."""
    return next((m for m in range(first, end) if tokens[m].kind == PUNCT and tokens[m].text in (":", "|")), None)


def _job_subject(words: list[str]) -> bool:
    """"all builds", "Python dependencies", "package management": a subject that is the job of a
    tool of lexicon programs.RIVALS (its noun in programs.JOB_NOUNS, one word at most before it
    besides determiners: a language, "Node packages"), not a part of the project ("the docs site")."""
    rest = [w for w in words if w not in _DETERMINERS]
    return bool(rest) and rest[-1] in _programs.JOB_NOUNS and len(rest) <= 2


def _names_job(tokens: list[Token], k: int, end: int) -> bool:
    """The words from `k` name a job of the tools of lexicon RIVALS ("for all package management",
    "for TypeScript dependencies", "as the package manager"): a job noun within the next few words,
    before any verb or clause."""
    for m in range(k, min(end, k + 4)):
        if tokens[m].kind == PUNCT:
            return False
        if tokens[m].kind == WORD and tokens[m].low in _programs.JOB_NOUNS:
            return True
    return False


def _label_alone(tokens: list[Token], k: int, end: int) -> bool:
    """The words from `k` to the clause's end are a job's label (lexicon RIVAL_LABELS), after one
    qualifier at most ("package manager", "Python package manager"): "Bun is our package manager",
    not a description of the tool ("uv is a fast Python package and project manager written in Rust")."""
    stop = next((m for m in range(k, end) if tokens[m].kind == PUNCT), end)
    words = [t.low for t in tokens[k:stop]]
    return " ".join(words) in _programs.RIVAL_LABELS or " ".join(words[1:]) in _programs.RIVAL_LABELS


def _stated_tool(tokens: list[Token], first: int, end: int) -> tuple[int, bool] | None:
    """The tool a statement names as doing its job, without an imperative (its index, and whether
    it is the sentence's subject):
    "Dependencies are managed with Poetry" (the job or the project, a participle of lexicon
    programs.STATED_PARTICIPLES, a preposition), "uv is used for package management", "Bun is our
    package manager" (the tool as the subject), "The package manager is yarn" (the job's label)."""
    be = next((m for m in range(first, min(end, first + 6)) if tokens[m].kind == WORD and tokens[m].low in ("is", "are")), None)
    if be is None or be + 1 >= end:
        return None
    subject = [t for t in tokens[first:be] if t.kind not in (PUNCT, SYMBOL)]
    low = [t.low for t in subject]
    if (len(subject) == 1 and _rival_family(subject[0].text.strip().lower()) is not None
            and ((tokens[be + 1].low == "used" and be + 2 < end and tokens[be + 2].low in ("for", "as")
                  and _names_job(tokens, be + 3, end))
                 or (tokens[be + 1].low in _DETERMINERS and _label_alone(tokens, be + 2, end)))):
        return tokens.index(subject[0]), True  # "uv is used for package management", "Bun is our package manager"
    k = be + 1
    if k + 1 < end and tokens[k].low in _programs.STATED_PARTICIPLES and tokens[k + 1].low in _programs.STATED_PREPOSITIONS:
        # "Dependencies are managed with Poetry"
        return (k + 2, False) if " ".join(low) in _markers.PROJECT_SUBJECTS or _job_subject(low) else None
    if " ".join(w for w in low if w not in _DETERMINERS) in _programs.RIVAL_LABELS:
        return k, False  # "The package manager is yarn"
    return None


def preferred_tool(tokens: list[Token], first: int, end: int) -> Frame | None:
    """"Use pnpm for package management", "Always use `uv` to manage dependencies", "Package
    manager: `yarn`", "This project uses pnpm", "Dependencies are managed with Poetry": one tool
    of those that do one job (lexicon RIVALS) is the project's, so the others are discouraged (a
    warning whose reason names it); "pnpm only", "use `uv` exclusively" rule them out (a ban).
    None unless the verb's object (or the label's value) is that bare program. A second tool of
    another job joined by "and" ("use pnpm for Node and uv for Python") is read the same way."""
    colon = _job_label_end(tokens, first, end)
    uses = _project_uses(tokens, first, end)
    if colon is not None and " ".join(t.low for t in tokens[first:colon]) in _programs.RIVAL_LABELS:
        k = colon + 1  # "Package manager: `yarn`"
    elif uses is not None:
        k = skip_determiner(tokens, uses, end)  # "This project uses pnpm"
    elif (stated := _stated_tool(tokens, first, end)) is not None:
        k, subject = stated
        if subject:  # "uv is used for package management": what follows the tool says its job
            name = tokens[k].text.strip().lower()
            return _rivals_of(name, _rival_family(name) or (), tokens, False)
        k = skip_determiner(tokens, k, end)  # "Dependencies are managed with Poetry"
    else:
        found = action_at(tokens, first, end)
        if found is None or "use" not in found[1]:
            return None
        k = skip_determiner(tokens, skip_adverbs(tokens, found[0], end), end)
    frame = _tool_named_at(tokens, k, end)
    if frame is None:
        return None
    # "use pnpm for Node and uv for Python": a tool of another job after "and"
    joint = next((q for q in range(k + 1, end - 1) if tokens[q].kind == WORD and tokens[q].low == "and"), None)
    if joint is not None and (second := _tool_named_at(tokens, skip_determiner(tokens, joint + 1, end), end)) is not None \
            and _rival_family(second.alternatives[0].text) != _rival_family(frame.alternatives[0].text):
        second.notes.insert(0, "a second tool of another job after 'and'")
        frame.more.append(second)
    return frame


def _tool_named_at(tokens: list[Token], k: int, end: int) -> Frame | None:
    """The tool of a job (lexicon RIVALS) named at `k` as the project's: its rivals discouraged,
    ruled out after "only"; None when what follows makes it a feature of the tool ("yarn
    workspaces"), or names another tool of the same job ("yarn or npm")."""
    if k >= end or tokens[k].kind not in (WORD, CODE):
        return None
    name = tokens[k].text.strip().lower()
    family = _rival_family(name)
    after = k + 1
    if after < end and tokens[after].kind == WORD and _VERSION_WORD.fullmatch(tokens[after].low):
        after += 1  # "Package manager: pnpm 9", "use yarn v4"
        if after < end and tokens[after].low == "with":
            after = end  # "pnpm 9 with `node-linker=hoisted`": the tool, set up some way
    only = after < end and tokens[after].low in _markers.EXCLUSIVE_WORDS
    if only:
        after += 1  # "pnpm only", "use `uv` exclusively": the others are ruled out
    if family is None or (after < end and not (tokens[after].kind == PUNCT or tokens[after].low in _PURPOSE_WORDS
                                               or (tokens[after].low == "and" and after + 1 < end
                                                   and tokens[after + 1].text.strip().lower() not in family))):
        return None  # "use yarn workspaces", "use npm's flag": a feature of the tool, not the tool
    return _rivals_of(name, family, tokens, only)


def _rivals_of(name: str, family: tuple[str, ...], tokens: list[Token], only: bool) -> Frame:
    """The other tools of `name`'s job, discouraged (banned when the text says it is the only one)."""
    rivals = [Obj("program", other) for other in family if other != name]
    said = f"'{name}' is {'the only' if only else 'the project' + chr(39) + 's'} tool of its kind"
    frame = Frame(BAN if only else AVOID, "only" if only else "use", actions=["use"], verb="use", objects=rivals,
                  alternatives=[Obj("program", name)], preference=True,
                  notes=[f"{said}: {', '.join(o.text for o in rivals)} are {'ruled out' if only else 'discouraged'}"])
    frame.start = tokens[0].start
    return frame


def _only_tool(tokens: list[Token], i: int, j: int, end: int) -> Frame | None:
    """"pnpm only.", "Package manager: pnpm ONLY (no npm)", "Only use pnpm": "only" with one tool
    of a job (lexicon RIVALS) and nothing else said, the other tools of the job are banned."""
    start = 0
    colon = _job_label_end(tokens, 0, i)
    if colon is not None and " ".join(t.low for t in tokens[:colon] if t.kind == WORD) in _programs.RIVAL_LABELS:
        start = colon + 1  # "Package manager: pnpm only"
    elif (uses := _project_uses(tokens, 0, i)) is not None:
        start = uses  # "This project uses pnpm only"
    before = [t for t in tokens[start:i] if t.kind not in (PUNCT, SYMBOL)]
    if i > 0 and len(before) == 1:
        name_at = tokens.index(before[0])  # "pnpm only"
    elif not before:
        found = action_at(tokens, j, end)  # "Only use pnpm"
        if found is None or found[1] != ["use"]:
            return None
        name_at = skip_determiner(tokens, found[0], end)
        j = name_at + 1
    else:
        return None
    if name_at >= end or tokens[name_at].kind not in (WORD, CODE):
        return None
    name = tokens[name_at].text.strip().lower()
    family = _rival_family(name)
    if j < end and tokens[j].low == "for":
        job = [t.low for t in tokens[j + 1 : end] if t.kind == WORD and t.low not in ("all", "the", "any")]
        if " ".join(job) in _programs.RIVAL_LABELS:
            j = end  # "only use pnpm for package management": the whole job
    if family is None or (j < end and tokens[j].kind != PUNCT):
        return None  # "npm only for publishing", "only use npm scripts", "only use yarn when ...": not the whole job
    return _rivals_of(name, family, tokens, True)


def _rival_family(name: str) -> tuple[str, ...] | None:
    """The tools that do the job `name` does, of which a project uses one (lexicon RIVALS), or None.
    The project's own launcher (`./mvnw`, lexicon PROJECT_LAUNCHERS) does its tool's job."""
    if "/" in name:
        name = _programs.PROJECT_LAUNCHERS.get(name.rsplit("/", 1)[-1], "")
    return next((f for f in _programs.RIVALS if name in f), None)


def _only_of_job(tokens: list[Token], i: int, j: int, end: int) -> Frame | None:
    """"pnpm is the only allowed package manager", "The only package manager we use is uv": the one
    tool of a job (lexicon RIVALS, RIVAL_LABELS) named beside "the only ... <job>"; the others are
    banned when the words say it is the only one permitted (programs.PERMITTED_WORDS), else warned."""
    if i == 0 or tokens[i - 1].low != "the":
        return None
    k = j
    permitted = False
    while k < end and tokens[k].kind == WORD and tokens[k].low in _programs.PERMITTED_WORDS:
        permitted, k = True, k + 1
    label = next((lab for lab in _programs.RIVAL_LABELS if " ".join(t.low for t in tokens[k : k + len(lab.split())]) == lab), None)
    if label is None:
        return None
    k += len(label.split())
    if k < end and tokens[k].kind == WORD and tokens[k].low in ("that", "which", "to", "with", "for", "where", "in"):
        return None  # "npm is the only package manager that supports X": a description of the tool
    before = [t for t in tokens[: i - 1] if t.kind not in (PUNCT, SYMBOL)]
    if len(before) == 2 and before[1].low in ("is", "remains"):
        name_at = tokens.index(before[0])  # "pnpm is the only allowed package manager"
    elif not before:
        rest = [t for t in tokens[k:end] if t.kind not in (PUNCT, SYMBOL)]
        if len(rest) < 2 or rest[-2].low != "is":
            return None  # "the only package manager [you may use] is bun"
        permitted = permitted or any(t.low in _programs.PERMITTED_WORDS for t in rest[:-2])
        name_at = tokens.index(rest[-1])
    else:
        return None
    name = tokens[name_at].text.strip("`*").lower()
    family = _rival_family(name)
    if family is None:
        return None
    frame = _rivals_of(name, family, tokens, permitted)
    frame.notes.insert(0, f"'the only {label}': {name}")
    return frame


@lru_cache(maxsize=None)
def _check_marks() -> frozenset[str]:
    """The marks that say what is allowed (lexicon cjk check-mark, shared by every language)."""
    return frozenset(w for e in _cjk_lex.CUES if e.meaning == "allow" for w in e.words)


def read_uncued(tokens: list[Token], ctx: Context) -> Frame | None:
    """A clause without a cue: an item under a heading or intro that has one, or a substitution
    ("Use `yarn` not `npm`", "Prefer X over Y", "use X to create releases (not Y)")."""
    words = [t for t in tokens if t.kind != PUNCT]
    if not words:
        return None
    first = 0
    while first < len(tokens) and tokens[first].kind in (PUNCT, SYMBOL):
        first += 1
    if ctx.modality in (BAN, AVOID, ASK) and any(t.text in _check_marks() for t in tokens[:first]):
        return None  # "✅ `git push`" among the "❌" items of "Forbidden commands:": what is allowed
    if ctx.modality in (BAN, AVOID, ASK):
        found = action_at(tokens, first, len(tokens))
        noun_at = skip_determiner(tokens, first, len(tokens))
        starts_with_object = first < len(tokens) and (tokens[first].kind in (CODE, QUOTE) or match(tokens, noun_at, "nouns") is not None
                                                       or _pathlike(tokens[first].text))
        if not starts_with_object and first < len(tokens) and tokens[first].low in ("the", "its", "their", "all", "any"):
            # "The two call sites (`a.ts`, `b.ts`)": a noun phrase naming its paths
            head = next((m for m in range(first, len(tokens)) if tokens[m].kind == PUNCT and tokens[m].text in ".;—-"),
                        len(tokens))
            starts_with_object = any(t.kind == CODE for t in tokens[first:head])
        if found is not None:
            frame = read_action_frame(tokens, first, first, len(tokens), ctx.modality, ctx.cue, ctx)
            frame.start = tokens[first].start
            for joined in _with_joined(frame):
                joined.inherited = True
                if ctx.condition and not joined.condition:
                    joined.condition, joined.condition_text = ctx.condition, ctx.condition_text
            frame.notes.insert(0, f"'{ctx.cue}' from the heading or intro")
            return frame
        if starts_with_object and _labels_own_instruction(tokens, first):
            return None
        if starts_with_object:
            frame = Frame(ctx.modality, ctx.cue, inherited=True, actions=list(ctx.actions) or ["bare"], verb=ctx.verb)
            objects, stop, notes = read_objects(tokens, first, len(tokens))
            frame.objects = objects
            frame.notes += [f"'{ctx.cue}' and its verb from the heading or intro; the item names the object"] + notes
            _read_tail(tokens, stop, len(tokens), frame)
            if " ".join(t.low for t in tokens[stop:stop + 2]) in _markers.NARROWING_RELATIVES:
                # "- `git checkout` that would discard changes": some calls of the command, which
                # the call does not show; a warning (asking on every `git checkout -b` stops work)
                frame.modality = AVOID
                frame.notes.append(f"narrowed by '{join(tokens[stop:])}': a warning")
            if ctx.condition and not frame.condition:
                frame.condition, frame.condition_text = ctx.condition, ctx.condition_text
            return frame
        return None
    # branch naming: "Use the branch naming convention `claude/<name>`"
    low = " ".join(t.low for t in tokens)
    codes = [t for t in tokens if t.kind == CODE]
    if "branch" in low and any(w in low for w in _BRANCH_FORM_WORDS) and _branch_forms(tokens):
        frame = Frame(REQUIRE, "convention", requirement="branch", objects=_branch_forms(tokens),
                      notes=["branch naming convention"])
        frame.start = tokens[0].start
        return frame
    found = action_at(tokens, first, len(tokens))
    if found is not None and ("use" in found[1] or "commit" in found[1]):
        objects = [Obj("code", t.text) for t in tokens if t.kind == CODE]
        if _commit_options(objects) and substitution(tokens, first) is None:
            # "Use `git commit -S --signoff` for every commit": the options every commit needs
            frame = Frame(REQUIRE, found[2], requirement="arguments", actions=found[1], verb=found[2], objects=objects,
                          notes=["an imperative naming the commit form: every commit needs its options"])
            frame.start = tokens[0].start
            return frame
    disclosure = _disclosure(tokens, first)
    if disclosure is not None:
        return disclosure
    return (runner_rule(tokens, first, len(tokens)) or substitution(tokens, first) or preferred_tool(tokens, first, len(tokens))
            or _topic_tool(tokens, first, ctx) or _purpose_tool(tokens, first, ctx) or _from_root(tokens, first, ctx))


def root_place(qualifier: str) -> bool:
    """"from the repository root", "at the repo root": the project's root as where to run
    (lexicon markers.ROOT_PLACES)."""
    words = re.split(r"[(,;:—–]| - ", qualifier.lower())[0].strip(" .!").split(" ", 1)  # "from the root (its config ...)"
    return len(words) == 2 and words[0] in _markers.ROOT_PREPOSITIONS and words[1].strip(" .;:,!") in _markers.ROOT_PLACES


def _from_root(tokens: list[Token], first: int, ctx: Context) -> Frame | None:
    """"Run make from the repository root": an imperative running a command from the project's
    root, with no rule word (a requirement; the command run below the root is warned)."""
    found = action_at(tokens, first, len(tokens))
    if found is None or not ({"run", "use"} & set(found[1])):
        return None
    frame = read_action_frame(tokens, first, first, len(tokens), REQUIRE, "run from the root", ctx)
    if not root_place(frame.qualifier) or not frame.objects:
        return None
    frame.start = tokens[first].start
    frame.notes.insert(0, "an imperative naming where to run a command: the project's root")
    return frame


#: the tasks a tool is named for in an imperative ("use `gofumpt` for formatting"); other purposes
#: ("use yarn workspaces for new packages") name a feature, not the one tool of a job
_TOOL_TASKS = frozenset(("build", "test", "lint", "typecheck", "format", "dev"))
#: a one-word code span that reads as a program's name (`gofumpt`), not a file (`Makefile`, `setup.py`)
_PROGRAM_NAME = re.compile(r"[a-z][a-z0-9_-]*")


def _topic_tool(tokens: list[Token], first: int, ctx: Context) -> Frame | None:
    """"## Package manager" then "pnpm" (or "**pnpm 9**", "bun only"): a clause that only names one
    tool of a job, under a heading that names the job (lexicon RIVAL_LABELS), says it as "Package
    manager: pnpm" does; a heading such as "Tooling" over several tools is no choice of one."""
    if ctx.topic not in _programs.RIVAL_LABELS:
        return None
    words = [t for t in tokens[first:] if t.kind not in (PUNCT, SYMBOL)]
    if not words:
        return None
    name = words[0].text.strip().lower()
    family = _rival_family(name)
    rest = [t.low for t in words[1:]]
    if rest and _VERSION_WORD.fullmatch(rest[0]):
        rest = rest[1:]
    only = bool(rest) and rest[0] in _markers.EXCLUSIVE_WORDS
    if family is None or rest[1 if only else 0:]:
        return None
    frame = _rivals_of(name, family, tokens, only)
    frame.notes.insert(0, f"the heading names the job ('{ctx.topic}'): the clause names its tool")
    return frame


def _purpose_tool(tokens: list[Token], first: int, ctx: Context) -> Frame | None:
    """"Use `gofumpt` for formatting", "Use `make fmt` to format Go code": an imperative naming the
    command for a task, read as "always use" is (the task's other commands are discouraged, a
    warning); None unless the clause opens with the verb and names a task of the categories."""
    found = action_at(tokens, first, len(tokens))
    if found is None or found[1] != ["use"]:
        return None
    frame = read_action_frame(tokens, first, first, len(tokens), REQUIRE, "use", ctx)
    if frame.purpose not in _TOOL_TASKS or not frame.objects or not all(
            o.kind == "code" and (" " in o.text.strip() or _names_program(o) or _PROGRAM_NAME.fullmatch(o.text))
            for o in frame.objects):
        return None  # "Use the `Makefile` for builds": a file, not the command
    frame.start = tokens[first].start
    frame.notes.insert(0, f"an imperative naming the command for {frame.purpose}: its other commands are discouraged")
    return frame


#: words before the one a text is addressed to, who is not what the text must say
_ADDRESSED = frozenset(("to", "addressing", "for", "from", "ask", "ping", "tag", "@"))
_DISCLOSE = frozenset(("disclose", "mention", "state", "note", "include", "say", "indicate", "declare"))
#: after a disclosure verb, words that make it a label over what follows ("Note on releases:")
_LABEL_AFTER = frozenset(("on", "about", "regarding"))


def _disclosure(tokens: list[Token], first: int) -> Frame | None:
    """"Disclose that the PR was authored with Claude", "Mention `Closes #N` in PR descriptions":
    a text the message must hold, when the sentence names where (a PR, a commit) and a literal
    (a quote, a code span, a proper name)."""
    if first >= len(tokens) or tokens[first].low not in _DISCLOSE:
        return None
    if first + 1 < len(tokens) and (tokens[first + 1].text == ":" or tokens[first + 1].low in _LABEL_AFTER or (
            tokens[first].low == "note" and tokens[first + 1].low == "that")):
        return None  # "Note on cleanup: the tool does not ...", "Note that ...": a label or an aside, not an order
    at = [k for k in range(first + 1, len(tokens)) if _surface_at(tokens, k)]
    if not at:
        return None
    surfaces = [_surface_at(tokens, k) for k in at]
    where = next((k for k in range(first + 1, len(tokens)) if tokens[k].low in _PREPOSITIONS), len(tokens))
    if tokens[first + 1].low != "that" and at[0] < where:
        return None  # "Include the commit message in replies to X": the text named is that message, not a literal
    literals = [t.text for t in tokens[first + 1:] if t.kind in (QUOTE, CODE)]
    noun = match(tokens, skip_determiner(tokens, first + 1, len(tokens)), "nouns")
    if not literals and noun is not None and noun[1][0] == "content":
        # "always mention AI assistance in commits": any of the texts the nouns table gives for it
        phrase = " ".join(t.low for t in tokens[skip_determiner(tokens, first + 1, len(tokens)):noun[0]])
        frame = Frame(REQUIRE, tokens[first].low, requirement="message", actions=["content"], verb=tokens[first].low,
                      objects=[Obj("noun", phrase, meaning={"content": noun[1][1]})], surfaces=surfaces,
                      notes=[f"'{tokens[first].low}': {surfaces[0]} must hold {phrase}"])
        frame.start = tokens[0].start
        return frame
    if not literals:
        # a proper name, not the one a reply goes to ("in replies to Gemini", "when addressing Copilot")
        literals = [t.text for k, t in enumerate(tokens[first + 1:], start=first + 1) if t.kind == WORD
                    and t.text[:1].isupper() and t.text.isalpha() and t.low not in ("pr", "prs")
                    and tokens[k - 1].low not in _ADDRESSED and match(tokens, k, "nouns") is None]
    if not literals:
        return None
    literals = [" ".join(w for w in literal.split() if not _placeholder_word(w)) for literal in literals]
    literals = [literal for literal in literals if len(literal) >= 3]
    if not literals:
        return None
    frame = Frame(REQUIRE, tokens[first].low, requirement="message", actions=["content"], verb=tokens[first].low,
                  objects=[Obj("quote", literals[0].lower())], surfaces=surfaces,
                  notes=[f"'{tokens[first].low}': {surfaces[0]} must hold '{literals[0]}'"])
    frame.start = tokens[0].start
    return frame


_PR_NOUN_WORDS = tuple(tuple(n.split()) for n in _markers.PR_NOUNS)
_PR_FIRST_WORDS = frozenset(n[0] for n in _PR_NOUN_WORDS)


def _pr_base(tokens: list[Token], cues: list[tuple[int, int, str, str]]) -> Frame | None:
    """"PRs target `develop` (not `master`)", "never open pull requests against `main`": the branch
    pull requests are opened against. Objects: the branches, `meaning["ruled out"]` on those the
    text excludes (after "not"/"never", or all of them under a ban)."""
    words = [t.low if t.kind == WORD else "" for t in tokens]
    if _PR_FIRST_WORDS.isdisjoint(words):
        return None
    nouns = [k for k in range(len(tokens)) if words[k] in _PR_FIRST_WORDS and any(
        tuple(words[k : k + len(n)]) == n for n in _PR_NOUN_WORDS)]
    if not nouns:
        return None
    verbs = [found[1] for k in range(nouns[0]) if (found := action_at(tokens, k, nouns[0])) is not None]
    if any("open" not in names and "create" not in names for names in verbs):
        return None  # "never merge PRs into main", "close PRs against main": another action on them
    after_noun = nouns[0] + (2 if words[nouns[0]] in ("pull", "merge") else 1)
    link = next((k for k in range(after_noun, min(after_noun + 4, len(tokens)))
                 if words[k] in _markers.PR_BASE_WORDS or " ".join(words[k : k + 2]) in _markers.PR_BASE_WORDS), None)
    if link is None:
        return None
    banned = any(c[2] in (BAN, AVOID) and c[0] < nouns[0] for c in cues)
    objects: list[Obj] = []
    negated = banned
    for k in range(link + 1, len(tokens)):
        tok = tokens[k]
        if tok.kind == WORD and tok.low in ("not", "never", "instead"):
            negated = True
        name = tok.text if tok.kind == CODE else tok.low if tok.kind == WORD and tok.low in _BRANCHES else ""
        if name and _branch_name(name):
            objects.append(Obj("branch", name, meaning={"branch": name, **({"ruled out": "yes"} if negated else {})}))
        elif tok.kind == CODE:
            return None  # "PRs to `develop` run `pnpm test`": a code span that is no branch name
    if not objects:
        return None
    frame = Frame(REQUIRE, "convention", requirement="pr-base", objects=objects,
                  notes=[f"pull requests are opened against {', '.join(o.text for o in objects)}"])
    frame.start = tokens[0].start
    return frame


def _commit_convention(tokens: list[Token], cues: list[tuple[int, int, str, str]]) -> Frame | None:
    """"Use Conventional Commits", "commit messages follow the conventional commit format": each
    commit message holds one of the convention's prefixes (warned when none is there). Not when
    the clause bans or drops the convention ("no conventional prefixes")."""
    text = " ".join(t.low for t in tokens if t.kind == WORD)
    named = [(names, prefixes) for names, prefixes in _nouns.COMMIT_CONVENTIONS if any(n in text for n in names)]
    if not named or any(c[2] in (BAN, AVOID) for c in cues) or not set(_markers.NEGATIONS).isdisjoint(text.split()):
        return None
    # "conventional commits with a gitmoji first": either convention's opening is the message's
    found = [prefix for _, prefixes in named for prefix in prefixes]
    name = named[0][0][0]
    rest = text
    for names, _ in named:
        rest = rest.replace(next(n for n in names if n in text), " ")
    from cf_guidance.policy.shapes import strong, surfaces_of  # the shape reader builds on this module's frames

    frame = Frame(REQUIRE, "convention", requirement="shape", phrase=name,
                  objects=[Obj("shape", name, meaning={"form": "starts", "starts": found, "certain": True})],
                  surfaces=surfaces_of(rest.split()),
                  notes=[f"a commit message convention: one of {', '.join(found[:3])}, ... must begin the message"])
    frame.verb = "strong" if strong(cues) else ""
    frame.start = tokens[0].start
    return frame


def _surface_at(tokens: list[Token], k: int) -> str:
    found = match(tokens, k, "nouns")
    if found is None:
        return ""
    phrase = " ".join(t.low for t in tokens[k : found[0]])
    return next((phrase for words, (kind, _) in _index("nouns").get(tokens[k].low, [])
                 if kind == "surface" and " ".join(words) == phrase), "")


def _placeholder_word(word: str) -> bool:
    """`#N`, `<id>`, `X`: a word that stands for a value."""
    bare = word.strip("#:()[]")
    return (len(bare) == 1 and bare.isupper()) or ("<" in word and ">" in word) or bare in ("N", "NNN", "ID")


def _program_named(objects: list[Obj]) -> bool:
    for obj in objects:
        if obj.kind == "program":
            return True
        first = obj.text.split()[0] if obj.kind == "code" and obj.text.split() else ""
        if first and (first in _programs.KNOWN_PROGRAMS or any(first in family for family in _programs.RIVALS)):
            return True
    return False


def _wrapper_of(wanted: list[Obj], banned: list[Obj]) -> bool:
    """"`bin/rails` instead of `rails`", "`./gradlew`, not `gradle`": the project's own launcher of the
    program it replaces, a path whose last part is that program's name (or the program's wrapper name)."""
    names = {o.text.split()[0] for o in banned if o.kind in ("code", "program") and o.text.split()}
    names |= {n.removesuffix("w") for n in names}
    for obj in wanted:
        first = obj.text.split()[0] if obj.kind == "code" and obj.text.split() else ""
        if "/" in first and first.rstrip("/").rsplit("/", 1)[-1].removesuffix("w") in names:
            return True
    return False


#: a program's name as a word (`talosctl`), not a phrase or a file
_PROGRAM_WORD = re.compile(r"[a-z][a-z0-9_-]*[a-z0-9]")


def _raw_programs(tokens: list[Token], k: int, end: int) -> list[Obj]:
    """"over raw kubectl/talosctl", "not the system dart": programs named plainly after the
    substitution's marker, joined by slashes; after "raw", "direct", "system" ... a program-like
    word the tables do not know is a program too (nothing else is run "raw")."""
    adjective = False
    while k < end and tokens[k].kind == WORD and (tokens[k].low in _PROGRAM_ADJECTIVES or tokens[k].low in _DETERMINERS):
        adjective = adjective or tokens[k].low in _PROGRAM_ADJECTIVES
        k += 1
    if k >= end or tokens[k].kind != WORD:
        return []
    parts = tokens[k].low.split("/")
    # an unknown word must stand as a command ("raw talosctl", "raw talosctl commands"), not "raw fetch calls"
    alone = k + 1 >= end or tokens[k + 1].kind == PUNCT or tokens[k + 1].low in _COMMAND_WORDS
    if not all(p in _programs.KNOWN_PROGRAMS or (adjective and alone and _PROGRAM_WORD.fullmatch(p)) for p in parts):
        return []
    return [Obj("program", p) for p in parts]


#: words after a program's name that say it is run as a command
_COMMAND_WORDS = frozenset(("command", "commands", "directly", "invocations", "cli", "binary", "binaries"))


@lru_cache(maxsize=None)
def _substitution_phrases() -> tuple[tuple[str, ...], ...]:
    """The markers of lexicon markers.SUBSTITUTIONS of more than one word whose banned side
    follows them; "not" and "over" (after "prefer") are read apart, and "never" is a cue."""
    return tuple(tuple(phrase.split()) for phrase, side in _markers.SUBSTITUTIONS
                 if side == "right" and " " in phrase and phrase.split()[-1] != "not")


def substitution(tokens: list[Token], first: int, *, any_subject: bool = True) -> Frame | None:
    """"Use `yarn` not `npm`", "`pnpm install` (not npm install)", "prefer X over Y", "use X
    instead of Y", "this project uses `pnpm`, NOT `npm`": the side after the marker is discouraged,
    the side before is what the reason names instead."""
    n = len(tokens)
    found = action_at(tokens, first, n)
    verb_is_use = found is not None and ("use" in found[1] or "run" in found[1])
    lead = first
    while lead < n and tokens[lead].kind == WORD and tokens[lead].low in _markers.PREFER_ADVERBS:
        lead += 1  # "Strongly prefer `rg` over `grep`"
    prefer = tokens[lead].low in _markers.PREFER_WORDS if lead < n else False
    start = found[0] if found is not None and verb_is_use else (lead + 1 if prefer else first)
    for m in range(start, n):
        tok = tokens[m]
        marker, after = "", m + 1
        phrase = passive = None
        if tok.kind == WORD and tok.low in _marker_heads():  # most words open no marker: compare no phrase
            phrase = next((p for p in _substitution_phrases() if tuple(t.low for t in tokens[m : m + len(p)]) == p), None)
            passive = next((p for p in _preferred_passive() if m > start and tuple(t.low for t in tokens[m : m + len(p)]) == p), None)
        if tok.kind == WORD and phrase is not None:
            marker, after = " ".join(phrase), m + len(phrase)  # "instead of", "rather than", "in place of"
        elif tok.kind == WORD and passive is not None:
            marker, after, prefer = " ".join(passive), m + len(passive), True  # "`ruff` should be preferred to `black`"
        elif tok.kind == WORD and tok.low == "not" and m > start:
            marker = "not"
        elif tok.kind == WORD and tok.low == "over" and prefer:
            marker = "over"
        elif tok.kind == WORD and tok.low in _markers.PREFER_TO and prefer and m + 1 < n and (
                tokens[m + 1].kind == CODE or tokens[m + 1].low in _programs.KNOWN_PROGRAMS):
            marker = tok.low  # "Prefer `rg` to `grep`" (not "Prefer `rg` to search the code")
        if not marker:
            continue
        wanted_end = m - 1 if tokens[m - 1].kind == PUNCT and tokens[m - 1].text in ("(", ",") else m
        wanted, _, _ = read_objects(tokens, start, wanted_end)
        if not wanted:
            # "This project uses `pnpm`, NOT `npm`": what is named just before the marker
            wanted = [Obj("code", t.text) if t.kind == CODE else Obj("program", t.low) for t in tokens[start:wanted_end]
                      if t.kind == CODE or (t.kind == WORD and t.low in _programs.KNOWN_PROGRAMS)][-3:]
        edited = _avoided_edit(tokens, m, after, marker, wanted)
        if edited is not None:
            return edited  # "instead of manually editing `pyproject.toml`": a file, not a command
        banned, stop, notes = read_objects(tokens, after, n)
        after_banned = [t.low for t in tokens[after:] if t.kind == WORD]
        if any(w in ("alone", "itself") for w in after_banned) and any(" commit" in f" {o.text}" for o in wanted if o.kind == "code"):
            # "use `git commit -S --signoff` (not `--signoff` alone)": every option of the form is required
            frame = Frame(REQUIRE, marker, requirement="arguments", objects=[o for o in wanted if o.kind == "code"],
                          notes=[f"'{marker} ... alone': the prescribed form's options are all required"])
            frame.start = tokens[0].start
            return frame
        runnable = [o for o in banned if o.kind in ("code", "program") or (o.kind == "noun" and ("category" in o.meaning or "program" in o.meaning))]
        if not runnable and after < n and tokens[after].kind == WORD and any(tokens[after].low in f for f in _programs.RIVALS):
            runnable = [Obj("program", tokens[after].low)]  # "build with `cabal build`, not stack": a tool of the same job
        if not runnable:
            runnable = _raw_programs(tokens, after, n)
        if not runnable:
            return _avoided_git_action(tokens, start, m, after, marker)
        if not (verb_is_use or prefer) and not ((_program_named(wanted) or _wrapper_of(wanted, runnable)) and _program_named(runnable)):
            return None  # "X, not Y" without "use": only when both sides are programs ("`pnpm`, NOT `npm`")
        frame = Frame(AVOID, marker, actions=["use"], verb="use", objects=runnable,
                      notes=[f"substitution: {join(tokens[start:m])} {marker} {join(tokens[after:])}"] + notes)
        frame.start = tokens[0].start
        _read_tail(tokens, m, n, frame)
        frame.alternatives = list(wanted)  # the tail reads the banned side as "instead of ..." too: not an alternative
        frame.objects = runnable
        # "use `uv pip` (not `pip`) and `uv run` (not `python`)": a second pair after "and" or a comma
        joint = next((q for q in range(max(stop, after + 1), n) if (tokens[q].kind == WORD and tokens[q].low == "and")
                      or (tokens[q].kind == PUNCT and tokens[q].text in (",", ";"))), None)
        if joint is not None and (second := substitution(tokens[joint + 1:], 0)) is not None:
            second.notes.insert(0, f"a second substitution after '{tokens[joint].text}'")
            frame.more.append(second)
        return frame
    return None


#: words that may follow a git action named as the thing not to do and still mean all of it
#: ("rather than amending existing ones"); anything else narrows it ("rather than committing untested code")
_WHOLE_ACTION_WORDS = frozenset(("the", "a", "an", "existing", "previous", "prior", "old", "last", "one", "ones",
                                 "commit", "commits", "it", "them", "history"))


@lru_cache(maxsize=None)
def _preferred_passive() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(p.split()) for p in _markers.PREFERRED_PASSIVE)


@lru_cache(maxsize=None)
def _marker_heads() -> frozenset[str]:
    """The first words of the substitution and passive markers (`substitution` compares phrases only there)."""
    return frozenset(p[0] for p in (*_substitution_phrases(), *_preferred_passive()))


def _avoided_edit(tokens: list[Token], m: int, after: int, marker: str, wanted: list[Obj]) -> Frame | None:
    """"Use `poetry add` instead of manually editing pyproject.toml": a file named after the marker
    as changed by hand is not to be edited (a warning on writes to it; the reason names the command)."""
    found = action_at(tokens, skip_adverbs(tokens, after, len(tokens)), len(tokens))
    if found is None or not all(_action_kind_of(a) == "write" for a in found[1]):
        return None
    objects, _, notes = read_objects(tokens, found[0], len(tokens))
    paths = [o for o in objects if o.kind == "path" or (o.kind == "code" and _pathlike(o.text))]
    if not paths:
        return None
    frame = Frame(AVOID, marker, actions=found[1], verb=found[2], objects=paths, alternatives=list(wanted),
                  start=tokens[0].start, text=join(tokens),
                  notes=[f"substitution: {marker} {found[2]} {', '.join(o.text for o in paths)}: editing it is discouraged"] + notes)
    return frame


def _instead_of_git_action(tokens: list[Token], start: int, end: int) -> Frame | None:
    """"Always create a new commit rather than amending": the required action's marker (one of the
    substitution's, lexicon markers.SUBSTITUTIONS) and the git action after it."""
    for m in range(start, end):
        phrase = next((p for p in _substitution_phrases() if tuple(t.low for t in tokens[m : m + len(p)]) == p), None)
        if phrase is not None and m + len(phrase) < end:
            return _avoided_git_action(tokens, start, m, m + len(phrase), " ".join(phrase))
    return None


def _avoided_git_action(tokens: list[Token], start: int, m: int, after: int, marker: str) -> Frame | None:
    """"Create a new commit rather than amending", "prefer merge commits over rebasing": a git
    action named after the marker is discouraged (a warning), whatever the wanted side is."""
    found = action_at(tokens, after, len(tokens))
    if found is None or not all(_action_kind_of(a) == "git" for a in found[1]):
        return None
    rest = [t for t in tokens[found[0]:] if not (t.kind == PUNCT and t.text in ".,;:)")]
    if any(t.kind != WORD or t.low not in _WHOLE_ACTION_WORDS for t in rest):
        return None
    frame = Frame(AVOID, marker, actions=found[1], verb=found[2], start=tokens[0].start, text=join(tokens),
                  notes=[f"substitution: {join(tokens[start:m])} {marker} {found[2]}: that action is discouraged"])
    return frame


def read_clause(tokens: list[Token], ctx: Context) -> list[Frame]:
    cjk = sum(len(t.text) for t in tokens if t.kind == CJK)
    if cjk and sum(1 for t in tokens if t.kind == WORD) <= 3 * cjk:
        from cf_guidance.policy.cjk import read_cjk  # the CJK reader builds on this module's frames

        return read_cjk(tokens, ctx)
    frames = read_english(tokens, ctx)  # an English sentence that quotes a word ("禁止 (forbidden) lists with ...")
    within = _within(tokens)
    for frame in frames if within else ():
        frame.within = within
        frame.notes.append(f"its paths are in {within}/ (the clause opens with it)")
    return frames


#: prepositions that open a clause with the directory it is about ("In `packages/web/`, never edit `src/gen/`")
_WITHIN = frozenset(("in", "inside", "within", "under"))


def _within(tokens: list[Token]) -> str:
    """The directory a clause opens with ("In `packages/web/`,", "Inside `services/api`:"): its
    paths are relative to it; "" when it opens otherwise."""
    if len(tokens) < 4 or tokens[0].low not in _WITHIN or tokens[1].kind != CODE:
        return ""
    k = 2
    if k < len(tokens) and tokens[k].low in ("directory", "folder", "package", "dir", "module", "workspace"):
        k += 1
    if not (tokens[k].kind == PUNCT and tokens[k].text in (",", ":")):
        return ""
    text = tokens[1].text.strip().strip("/")
    while text.startswith("./"):
        text = text[2:]
    if not text or any(c in text for c in " *?[$()=;|&<>'\":") or text.startswith(("-", "~", "..", "/")):
        return ""
    return text


@lru_cache(maxsize=None)
def _labels() -> dict[str, tuple[str, str]]:
    out: dict[str, tuple[str, str]] = {}
    for cue in _cues.LABEL_CUES + _cues.HEADING_CUES:
        for phrase in cue.phrases:
            key = phrase.replace(" ", "") if not phrase.isascii() else " ".join(_words(phrase))
            out.setdefault(key, (cue.modality, phrase))
    return out


def label_modality(words: list[Token]) -> tuple[str, str] | None:
    """The force of a label made only of rule words ("Never", "Ask first", "Don't", "禁止事項")."""
    if any(t.kind == CJK for t in words):
        key = "".join(t.text for t in words).replace(" ", "")
    else:
        key = " ".join(t.low for t in words)
    return _labels().get(key)


def command_family(obj: Obj) -> bool:
    """The object names a family of commands ("npm", "git operations", "these commands"), not one thing."""
    return obj.kind in ("pronoun", "program") or (obj.kind == "noun" and "category" in obj.meaning
                                                  and obj.text.split()[-1] in _COMMAND_NOUNS)


def family_label(words: list[Token]) -> tuple[str, str] | None:
    """A label of rule words and the family of commands its list holds ("Forbidden npm commands",
    "Prohibited git operations"): the force of the label; the family names the items, it is no
    object of its own."""
    if len(words) < 3 or words[-1].low not in _COMMAND_NOUNS or words[-2].low not in _programs.KNOWN_PROGRAMS:
        return None
    return label_modality(words[:-2])


#: who acts, between a place noun and its cue ("files you must not edit", "files the agent may not touch")
_TITLE_SUBJECTS = frozenset(("you", "claude", "agents", "agent", "the", "ai", "assistants", "an", "a"))
_FILE_PLACES = frozenset(_cues.FILE_PLACES)
#: the kinds of verb a file title can carry (writing, creating, reading the files)
_TITLE_KINDS = ("write", "create", "read")


def files_title(tokens: list[Token]) -> tuple[str, str, list[str], str] | None:
    """A title that names files under a force (lexicon.cues.FILE_TITLES): "Protected files",
    "Read-only directories", "Off limits", "Files you must not edit", "Generated files - DO NOT
    EDIT": (modality, its words, its actions, its verb); a title without a verb protects the files
    from edits (its items are paths, even those that look like scripts)."""
    if any(t.kind in (CODE, QUOTE, CJK) for t in tokens):
        return None
    words = [t for t in tokens if t.kind == WORD]
    if not words or len(words) > 8:
        return None
    low = [t.low for t in words]
    found = match(words, 0, "file-titles")
    if found is not None:
        # "Protected files", "Read-only source directories", "Off limits"
        j, cue = found
        rest = low[j:]
        place = next((k for k, w in enumerate(rest) if w in _FILE_PLACES), -1)
        if (0 <= place <= 2 and place == len(rest) - 1) or (not rest and cue.modality == BAN):
            return cue.modality, " ".join(low[:j]), ["edit"], "edit"
        return None
    place = next((k for k, w in enumerate(low) if w in _FILE_PLACES), -1)
    if not 0 <= place <= 3:
        return None
    text = " ".join(low)
    for words_ in _markers.IGNORE_TITLE_WORDS:
        if text in (f"{low[place]} {words_}", f"{words_} {low[place]}") or text.endswith(f" {low[place]} {words_}"):
            return AVOID, words_, ["read"], "read"  # "## Directories to ignore", "Ignored folders:"
    q = place + 1
    while q < len(words) and low[q] in _TITLE_SUBJECTS:
        q += 1
    after = match(words, q, "file-titles")
    if after is not None and after[0] == len(words):
        return after[1].modality, " ".join(low[q:]), ["edit"], "edit"  # "Files (read-only)"
    if low[q:q + 2] in (["not", "to"], ["never", "to"], ["to", "never"], ["to", "not"]):
        modality, cue_words, k = BAN, " ".join(low[q:q + 2]), q + 2
    else:
        cued = match(words, q, "cues")
        if cued is None or cued[1].modality not in (BAN, AVOID, ASK):
            return None
        modality, cue_words, k = cued[1].modality, " ".join(low[q:cued[0]]), cued[0]
    k = skip_adverbs(words, k, len(words))
    verbs = action_at(words, k, len(words))
    if verbs is None or not all(_action_kind_of(a) in _TITLE_KINDS for a in verbs[1]):
        return None
    return modality, cue_words, verbs[1], verbs[2]


def heading_modality(tokens: list[Token]) -> tuple[str, str] | None:
    """The force a heading gives the section below it ("## NEVER", "### What to AVOID")."""
    if any(t.kind == CJK for t in tokens):
        from cf_guidance.policy.cjk import heading_force

        return heading_force(tokens)
    for k in range(len(tokens)):
        found = match(tokens, k, "heading")
        if found is not None:
            j, cue = found
            # "Never" headings, "Forbidden patterns", "What to avoid": the words must be most of it
            words = [t for t in tokens if t.kind == WORD]
            if len(words) <= 4 or k == 0:
                return cue.modality, " ".join(t.low for t in tokens[k:j])
    return None
