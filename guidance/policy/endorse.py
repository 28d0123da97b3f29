"""Commands the policy tells the agent to run, and imported files it tells the agent to keep up to date.

A release procedure that says "Run `gh workflow run` against the release workflow" makes that
command part of the project's documented work. The effects gate still asks before a command
that changes something on another machine (EFF001); when the project's own text prescribes the
command, asking every time only teaches users to click through, so the engine warns instead and
names the line (engine.endorsed). Only an instruction counts: a sentence that starts with a verb
of running (`ENDORSING_VERBS`), with no negation in it, naming a command of at least two words
(`gh workflow run`, not a bare `gh`), or that starts with the verb the command names ("Merge
the PR with `gh pr merge --squash`"). A command the same policy bans is never endorsed.

A file the policy imports (`See @docs/OVERVIEW.md`) is part of the policy, and the protected-paths
gate asks before any change to it (PTH007). When the policy also tells the agent to keep that file
current ("Keep `docs/OVERVIEW.md` up to date when features change"), the change is the agent's
documented work: the gate warns and names the line. Only an instruction counts: a sentence opening
with a verb of upkeep (`UPKEEP_VERBS`; "keep" with a state word of `UPKEEP_STATES`), with no
negation, naming the file by its path or its file name. The files Claude Code and Codex load by name
(CLAUDE.md, AGENTS.md, ...) are never endorsed: they are the user's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from cf_guidance.policy.lexicon import markers as _markers
from cf_guidance.policy.markdown import Block
from cf_guidance.policy.text import CODE, PUNCT, SYMBOL, WORD, Token, sentences

#: verbs that open an instruction to run what follows ("Run `x`", "Use `x` to ...", "Trigger ...")
ENDORSING_VERBS = frozenset(("run", "use", "execute", "invoke", "call", "trigger"))
#: words that turn an instruction around ("Run `x` only if ...` stays; "Use `x`, never `y`" does not);
#: "instead" too, since "Run `x` instead of `y`" names the command it replaces beside the one it prescribes
_NEGATIONS = frozenset((*_markers.NEGATIONS, "instead"))
#: verbs that open an instruction to change a file ("Update `docs/api.md` when ...", "Add new terms to `GLOSSARY.md`")
UPKEEP_VERBS = frozenset(("update", "edit", "maintain", "refresh", "extend", "revise", "add", "append", "record", "document", "log"))
#: what "keep" must be followed by to ask for changes ("keep `docs/api.md` up to date"; "keep `a.md` short" does not)
UPKEEP_STATES = frozenset(("current", "up-to-date", "updated", "accurate", "synced"))
#: two-word states after "keep" ("up to date" is read word by word)
_UPKEEP_STATE_PAIRS = frozenset((("in", "sync"), ("up", "to")))
#: words before the verb that leave an instruction an instruction ("Always update ...", "Please keep ...")
_LEADING = frozenset(("always", "please", "also", "then", "and"))
#: block kinds that can carry an instruction (code is an example; headings and comments are not)
_PROSE = frozenset(("bullet", "paragraph", "row"))


def endorsements(blocks: Iterable[Block], source: str, tokens: Callable[[int], list[Token]]) -> list[tuple[list[str], str]]:
    """(command words, "file:line") for each command an instruction in `blocks` prescribes;
    `tokens(index)` gives a block's tokens (extract.BlockTokens, shared with extraction)."""
    out: list[tuple[list[str], str]] = []
    for index, block in enumerate(blocks):
        if block.kind not in _PROSE or not block.inline.codes:
            continue
        for sentence in sentences(tokens(index)):
            words = [t for t in sentence if t.kind in (WORD, CODE)]
            first = next((t for t in words if not (t.kind == WORD and t.low.rstrip(".").isdigit())), None)
            if first is None or first.kind != WORD:
                continue
            # "Merge the PR with `gh pr merge --squash`": a verb the command itself names prescribes that command
            named = first.low not in ENDORSING_VERBS
            if any(t.kind == WORD and t.low in _NEGATIONS for t in sentence if t.kind not in (PUNCT, SYMBOL)):
                continue
            line = f"{source}:{block.inline.line_of(first.start, block.line)}"
            for token in sentence:
                command = token.text.split()
                if token.kind == CODE and len(command) >= 2 and command[0].replace("-", "").replace("_", "").isalnum() \
                        and (not named or first.low in command[1:]):
                    out.append((command, line))
    return out


def unbanned(found: list[tuple[list[str], str]], checks: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    """The endorsements no command check of the same policy bans, once each, as settings entries."""
    banned = [check["pattern"] for check in checks
              if check.get("kind") == "command" and isinstance(check.get("pattern"), list)]
    out: list[dict[str, object]] = []
    seen: set[tuple[str, ...]] = set()
    for words, source in found:
        if tuple(words) in seen or any(words[: len(p)] == p for p in banned if isinstance(p, list)):
            continue
        seen.add(tuple(words))
        out.append({"words": words, "source": source})
    return out


def upkept_files(blocks: Iterable[Block], source: str, tokens: Callable[[int], list[Token]],
                 names: dict[str, str]) -> list[tuple[str, str]]:
    """(path, "file:line") for each file of `names` (the ways a text names it, lowercased: its
    path from the project root, its file name -> its path) that an instruction in `blocks` tells
    the agent to keep up to date."""
    out: list[tuple[str, str]] = []
    for index, block in enumerate(blocks):
        if block.kind not in _PROSE:
            continue
        for sentence in sentences(tokens(index)):
            words = [t for t in sentence if t.kind in (WORD, CODE)]
            k = 0
            while k < len(words) and words[k].kind == WORD and (words[k].low in _LEADING or words[k].low.rstrip(".").isdigit()):
                k += 1
            if k >= len(words) or words[k].kind != WORD or not _upkeep(words, k):
                continue
            if any(t.kind == WORD and t.low in _NEGATIONS for t in words):
                continue
            line = f"{source}:{block.inline.line_of(words[k].start, block.line)}"
            for token in words[k + 1:]:
                path = names.get(token.low.strip(".,;:()'\"").removeprefix("@").removeprefix("./"))
                if path is not None and (path, line) not in out:
                    out.append((path, line))
    return out


def _upkeep(words: list[Token], k: int) -> bool:
    """`words[k]` opens an instruction to change what follows: an upkeep verb, or "keep" with a state after the object."""
    verb = words[k].low
    if verb in UPKEEP_VERBS:
        return True
    if verb != "keep":
        return False
    later = [t.low for t in words[k + 1:] if t.kind == WORD]
    return any(w in UPKEEP_STATES for w in later) or any(pair in _UPKEEP_STATE_PAIRS for pair in zip(later, later[1:]))
