"""Orderings whose step is a tool use: a file to read, or to update, before an action.

"Read `docs/architecture.md` before changing anything in `core/`", "At the start of each session,
read `.tasks/TODO.md`", "Update `CHANGELOG.md` before every commit", "Read `CONTRIBUTING.md`
before opening a PR", "When you change `api/settings.py`, update `docs/settings.md`". The words
are data (lexicon/steps.py); this module finds them in a clause:

    [moment or situation ,] [cue] STEP-VERB <paths> [moment]

The step's files are the paths of the verb's phrase (for an update, the path after "in" / "to"
too: "add an entry to `CHANGES.md`"), a file's usual name ("the changelog") or, for "it" /
"them", the paths of the sentences before. The action it comes before is a git action or a
command after "before" (as for command steps), the edits a moment names ("before changing
`core/`": those paths; "before making changes": any file), or the session's first edits ("at the
start of each session", "first"). An update after a change of named files ("When you change
`A`, update `B`") is owed before the next commit, only when `A` changed.

Said with must / always, an update before an action denies (the agent does it and retries); said
plainly it warns. A read step always warns: a read the session cannot see may have happened (in an
earlier session, a file the client loaded, a subagent's read).
"""

from __future__ import annotations

from cf_guidance.policy.lexicon import steps as _steps
from cf_guidance.policy.text import CODE, PUNCT, SYMBOL, WORD, Token, join

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.policy.frames import Context, Frame


def _phrase_table(items: list[tuple[tuple[str, ...], object]]) -> dict[str, list[tuple[tuple[str, ...], object]]]:
    """Phrases by their first word, longest first."""
    table: dict[str, list[tuple[tuple[str, ...], object]]] = {}
    for words, value in items:
        table.setdefault(words[0], []).append((words, value))
    for entries in table.values():
        entries.sort(key=lambda e: -len(e[0]))
    return table


_VERBS = _phrase_table([(tuple(w.split()), verb.step) for verb in _steps.STEP_VERBS for w in verb.words])
_MOMENTS = _phrase_table([(tuple(p.split()), moment.then) for moment in _steps.STEP_MOMENTS for p in moment.phrases])
_FILES = _phrase_table([(tuple(w.split()), globs) for words, globs in _steps.STEP_FILES for w in words])

#: words that may stand before the verb of an order ("Please always read ...", "You must first update ...")
_LEAD = frozenset(("please", "always", "also", "then", "and", "you", "first", "important", "critical", "note", "mandatory",
                   "required", "must", "should", "make", "sure", "to", "remember"))
#: extensions a file named without backticks has ("update TODO.md"): documents and data, so that
#: a product's name ("Node.js", "Next.js") or an abbreviation ("e.g.") is not a file
_WORD_EXTENSIONS = frozenset(("md", "mdx", "markdown", "rst", "txt", "adoc", "org", "yaml", "yml", "json", "toml", "ini", "cfg",
                              "xml", "csv", "lock"))
#: words that refer to the files of the sentences before ("read it first")
_PRONOUNS = ("it", "them", "these", "this", "that", "those")
#: words that open a clause's leading situation, before a comma or a question mark ("When working on `web/`, ...")
_OPENERS = frozenset(("before", "when", "whenever", "while", "if", "at", "working", "after", "on", "for"))


def _at(table: dict[str, list[tuple[tuple[str, ...], object]]], tokens: list[Token], k: int, end: int) -> tuple[int, object] | None:
    """The longest phrase of `table` whose words start at `k` (words only), as (end, value)."""
    if k >= end or tokens[k].kind != WORD:
        return None
    for words, value in table.get(tokens[k].low, ()):
        stop = k + len(words)
        if stop <= end and all(tokens[k + j].kind == WORD and tokens[k + j].low == w for j, w in enumerate(words)):
            return stop, value
    return None


def _pathlike(tok: Token) -> bool:
    """A written path: a code span or word with a `/` or an extension, no spaces, not a URL or a command."""
    text = tok.text.strip()
    if tok.kind not in (CODE, WORD) or not text or " " in text or text.startswith(("http", "-", "$")):
        return False
    body = text.rstrip("/")
    extension = body.lstrip(".").rsplit(".", 1)[1] if "." in body.lstrip(".") else ""
    named = extension.isalnum() and not extension.isdigit()
    if tok.kind == WORD:
        # "TODO_MVP.md"; a slash in prose is not a path ("features/tasks", "and/or")
        return extension.lower() in _WORD_EXTENSIONS and len(body) > len(extension) + 1
    return "/" in text or named or (body.startswith(".") and len(body) > 1)


def _glob(text: str) -> str:
    path = text.strip().lstrip("@")  # "`@docs/a.md`": the import form of the same file
    while path.startswith("./"):
        path = path[2:]
    return path + "**" if path.endswith("/") else path


def _within(glob: str) -> str:
    """The files an edit moment's path covers: a directory written without its `/` (`crates/cli`)
    is everything below it."""
    last = glob.rstrip("/").rsplit("/", 1)[-1]
    return glob if "*" in glob or "." in last else glob.rstrip("/") + "/**"


def _paths(tokens: list[Token], i: int, end: int) -> list[str]:
    """The paths written between i and end, up to a parenthesis ("(e.g. ...)": examples)."""
    out: list[str] = []
    for tok in tokens[i:end]:
        if tok.kind == PUNCT and tok.text == "(" and out:
            break
        if _pathlike(tok):
            path = _glob(tok.text)
            if path not in out:
                out.append(path)
    return out


def _named_files(tokens: list[Token], i: int, end: int) -> list[str]:
    """Files named by their usual name ("the changelog") between i and end."""
    out: list[str] = []
    for k in range(i, end):
        found = _at(_FILES, tokens, k, end)
        if found is not None:
            out += [g for g in found[1] if g not in out]  # type: ignore[attr-defined]
    return out


def _clause_stop(tokens: list[Token], i: int, end: int) -> int:
    """Where the phrase from `i` ends: its next comma, semicolon, colon, question mark or dash
    outside parentheses ("Before writing shared logic (dedupe, lookups), read ...")."""
    depth = 0
    for k in range(i, end):
        tok = tokens[k]
        if tok.kind != PUNCT:
            continue
        if tok.text == "(":
            depth += 1
        elif tok.text == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and tok.text in (",", ";", ":", "?", "\u2014"):
            return k
    return end


def _lead_end(tokens: list[Token]) -> int:
    """Where a leading situation ends ("When working on `web/`," / "Working under `web/`?" /
    "At the start of each session,"): after its comma, question mark or colon; 0 when there is none."""
    if not tokens or tokens[0].kind != WORD or tokens[0].low not in _OPENERS:
        return 0
    stop = _clause_stop(tokens, 0, len(tokens))
    if stop >= len(tokens) - 1 or tokens[stop].text not in (",", "?", ":"):
        return 0
    return stop + 1


#: words of a noun phrase that says the file is updated ("CHANGELOG updates are required before ...")
_UPDATE_NOUNS = frozenset(("update", "updates", "updated", "entry", "entries", "bump", "bumped"))


def _verbless(tokens: list[Token], i: int, end: int) -> tuple[int, list[str]] | None:
    """"`CHANGELOG.md` updates are required before ...", "The changelog must be updated before ...":
    an update step said of its file, (where the phrase ends, its files), or None."""
    k = i
    while k < end and tokens[k].kind == WORD and tokens[k].low in ("the", "a", "an", "all"):
        k += 1
    files = _paths(tokens, k, k + 1) if k < end else []
    stop = k + 1
    if not files:
        found = _at(_FILES, tokens, k, end)
        if found is None:
            return None
        files, stop = list(found[1]), found[0]  # type: ignore[call-overload]
    for m in range(stop, min(stop + 4, end)):
        if tokens[m].kind == WORD and tokens[m].low in _UPDATE_NOUNS:
            return m + 1, files
    return None


#: the files that hold a directory's instructions for agents
_GUIDES = frozenset(("AGENTS.md", "CLAUDE.md", "agents.md"))
#: words of an edit moment that do not name a kind of change ("before making any changes to the code")
_GENERIC = frozenset(("code", "files", "file", "anything", "any", "changes", "change", "the", "a", "an", "in", "to", "of", "under",
                      "within", "inside", "this", "that", "repo", "repository", "project", "codebase", "it", "them", "either",
                      "work", "task", "tasks", "your", "new", "existing", "source", "something", "or", "and", "you", "make",
                      "making", "here", "these", "those", "all", "every", "each"))


def _moments(tokens: list[Token], i: int, end: int) -> list[tuple[str, object, bool]]:
    """The moments between i and end: ("then", git action or command) after "before", ("edit",
    paths) and ("start", None) of lexicon.steps.STEP_MOMENTS; the flag says an edit moment names
    a kind of change rather than files ("before adding product analytics")."""
    from cf_guidance.policy.frames import then_at

    out: list[tuple[str, object, bool]] = []
    m = i
    depth = 0
    while m < end:
        if tokens[m].kind == PUNCT and tokens[m].text in ("(", ")"):
            depth = depth + 1 if tokens[m].text == "(" else max(0, depth - 1)
        moment = _at(_MOMENTS, tokens, m, end)
        if tokens[m].kind != WORD or depth and not (moment is not None and moment[1] == "session"):
            m += 1  # "(not just before committing)": an aside is no moment of the step; "(every session)" says when
            continue
        if moment is not None:
            edge = moment[0]
            stop = _clause_stop(tokens, edge, end)
            named = [_within(p) for p in _paths(tokens, edge, stop)] if moment[1] == "edit" else None
            kind = moment[1] == "edit" and not named and any(
                t.kind == WORD and t.low not in _GENERIC for t in tokens[edge:stop])
            out.append((str(moment[1]), named, kind))
            m = edge
            continue
        if tokens[m].low in ("before", "prior"):
            found = then_at(tokens, m + (2 if tokens[m].low == "prior" else 1), end)
            if found is not None and found[1] != "remote":
                out.append(("then", found[1], False))
        m += 1
    return out


def _verb_at(tokens: list[Token], k: int, n: int, cues: dict[int, int], lead: int) -> tuple[int, tuple[int, object] | None]:
    """The step verb an order's words lead to from `k` (after cues, "please", "first", ...), as
    (its position, its match) or (k, None)."""
    while k < n:
        tok = tokens[k]
        if k in cues:
            k = cues[k]
            continue
        if tok.kind in (PUNCT, SYMBOL) or (tok.kind == WORD and tok.low in _LEAD and _at(_VERBS, tokens, k, n) is None):
            k += 1
            continue
        moment = _at(_MOMENTS, tokens, k, n)
        if moment is not None and lead == 0:
            k = moment[0]  # "First, read ..." / "Before starting any code change, read ..." (no comma: rare)
            continue
        return k, _at(_VERBS, tokens, k, n)
    return k, None


def read_step(tokens: list[Token], cues: list[tuple[int, int, str, str]], ctx: Context, *, intro: bool = False) -> Frame | None:
    """The ordering of a clause whose step is reading or updating a file, or None. With `intro`
    (the sentence introduces a list: "Read these first:"), the ordering may name no file: the
    items name them (`item_step`)."""
    from cf_guidance.policy.frames import ANY_CHANGE, ASK, AVOID, BAN, ONLY, REQUIRE, Frame, Obj, Ordering, _change_phrase, hard

    n = len(tokens)
    if n < 3 or any(c[2] in (BAN, AVOID, ASK) for c in cues):
        return None
    lead = _lead_end(tokens)
    cue_ends = {c[0]: c[1] for c in cues if c[2] in (REQUIRE, ONLY)}
    _, verb = _verb_at(tokens, lead, n, cue_ends, lead)
    verbless = _verbless(tokens, lead, n) if verb is None else None
    if verb is None and verbless is None:
        return None
    step = str(verb[1]) if verb is not None else "edit"
    body = verb[0] if verb is not None else verbless[0]  # type: ignore[index]
    stop = _clause_stop(tokens, body, n)
    after = next((m for m in range(body, stop) if tokens[m].kind == WORD and (
        tokens[m].low in ("before", "when", "whenever", "prior", "after") or _at(_MOMENTS, tokens, m, stop) is not None)), stop)
    if verbless is not None:
        paths = verbless[1]
    else:
        paths = _paths(tokens, body, after)
        if step == "read" and paths:
            # "read `a.md` and follow its steps": the verb's objects; an update names its file anywhere
            # in its phrase ("add an entry to `CHANGES.md`")
            paths = _paths(tokens, body, next((m for m in range(body, after) if tokens[m].kind == WORD and tokens[m].low in (
                "and", "for", "to")), after)) or paths
        if not paths:
            paths = _named_files(tokens, body, after)
        pronoun = any(t.kind == WORD and t.low in _PRONOUNS + ("following",) for t in tokens[body:after])
        if not paths and pronoun and stop < n and tokens[stop].text == ":":
            paths = _paths(tokens, stop + 1, n)  # "Read these first: `a.md`, `b.md`"
        if not paths and pronoun:
            paths = [_glob(o.text) for o in ctx.antecedents if o.kind in ("code", "path")
                                and _pathlike(Token(CODE, o.text, o.text.lower(), 0))]
        if not paths and after == body:
            # "`docs/items.md` — Read before touching items": the path the list item opens with
            paths = [_glob(o.text) for o in ctx.label if _pathlike(Token(CODE, o.text, o.text.lower(), 0))]
    if not paths and not (intro and step == "read" and verb is not None and (pronoun or after == body)):
        return None
    found = _moments(tokens, after, n) + _moments(tokens, 0, lead)
    then = next((str(v) for kind, v, _ in found if kind == "then"), "")
    scoped = next((list(v) for kind, v, _ in found if kind == "edit" and v), None)  # type: ignore[call-overload]
    start = not then and scoped is None and any(kind in ("start", "session") for kind, _, _ in found) and not any(
        kind == "edit" for kind, _, _ in found)
    # "first" without the session named: the work of the document, or of the section it is under
    bound = start and not any(kind == "session" for kind, _, _ in found)
    then_paths: list[str] = [] if then else scoped or (
        [ANY_CHANGE] if any(kind in ("edit", "start", "session") for kind, _, _ in found) else [])
    # an edit moment of a kind of change ("before adding analytics"): which edits those are, the
    # words do not say; every edit is warned
    kinded = not then and scoped is None and any(flag for kind, _, flag in found if kind == "edit")
    edits: list[str] = []
    if step == "edit" and not then_paths:
        # "When you change `api/settings.py`, update `docs/settings.md`" / "update `B` whenever `A`
        # changes" / "`B` needs an update after `A` changes": owed before the next commit (or the
        # action named), after a change of those files
        changed = _change_phrase(tokens, 1, lead - 1) if lead else None
        if changed is None and after < n and tokens[after].low in ("when", "whenever", "if", "after"):
            changed = _change_phrase(tokens, after + 1, n)
        if changed is not None and changed[1] != [ANY_CHANGE] and not changed[2]:
            then, edits = then or "commit", list(changed[1])
    if not then and not then_paths:
        return None
    if step == "edit" and not then and (start or kinded):
        return None  # "update the log first": which work it comes before, no edit shows
    if start and len(paths) == 1 and "/" in paths[0] and paths[0].rsplit("/", 1)[1] in _GUIDES:
        # "Working under `web/`? Read `web/AGENTS.md` first": a directory's own instructions are
        # for the work in it
        then_paths = [paths[0].rsplit("/", 1)[0] + "/**"]
    # as strong as the text says ("must", "required", "only after"; "always" states practice)
    strong = (hard(cues) or any(c[2] == ONLY for c in cues)) and not any(t.kind == WORD and t.low == "should" for t in tokens)
    # a read the session cannot see may have happened (an earlier session, a file the client loaded,
    # a subagent's read): a read step warns, however strongly it is said
    soft = step == "read" or kinded or not strong or ctx.advised
    shown = then or ("the first edit" if start else "edits of " + " ".join(then_paths))
    frame = Frame(REQUIRE, ordering=Ordering([Obj("path", p) for p in paths], then, soft=soft, edits=edits, step=step,
                                             then_paths=then_paths, sectional=bound), start=tokens[0].start,
                  notes=[f"a {step} of {', '.join(paths)} before {shown}" + (f", after a change of {' '.join(edits)}" if edits else "")])
    frame.text = join(tokens)
    return frame


def item_step(tokens: list[Token], ctx: Context) -> Frame | None:
    """An item under an intro that says to read its items first ("Read these first:" over "- `a.md`
    — the architecture"): the intro's ordering with the paths the item opens with."""
    from cf_guidance.policy.frames import REQUIRE, Frame, Obj, Ordering

    template = ctx.step
    if template is None:
        return None
    paths = _paths(tokens, 0, _clause_stop(tokens, 0, len(tokens)))
    if not paths:
        return None
    ordering = Ordering([Obj("path", p) for p in paths], template.then, soft=template.soft, step=template.step,
                        then_paths=list(template.then_paths), sectional=template.sectional)
    return Frame(REQUIRE, ordering=ordering, start=tokens[0].start, text=join(tokens), inherited=True,
                 notes=[f"a read of {', '.join(paths)}, as the list's introduction says"])
