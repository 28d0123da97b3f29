"""Commands the policy tells the agent to run.

A release procedure that says "Run `gh workflow run` against the release workflow" makes that
command part of the project's documented work. The effects gate still asks before a command
that changes something on another machine (EFF001); when the project's own text prescribes the
command, asking every time only teaches users to click through, so the engine warns instead and
names the line (engine.endorsed). Only an instruction counts: a sentence that starts with a verb
of running (`ENDORSING_VERBS`), with no negation in it, naming a command of at least two words
(`gh workflow run`, not a bare `gh`). A command the same policy bans is never endorsed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from cf_guidance.policy.markdown import Block
from cf_guidance.policy.text import CODE, PUNCT, SYMBOL, WORD, Token, sentences

#: verbs that open an instruction to run what follows ("Run `x`", "Use `x` to ...", "Trigger ...")
ENDORSING_VERBS = frozenset(("run", "use", "execute", "invoke", "call", "trigger"))
#: words that turn an instruction around ("Run `x` only if ...` stays; "Use `x`, never `y`" does not)
_NEGATIONS = frozenset(("not", "never", "don't", "dont", "do not", "avoid", "no", "without", "instead"))
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
            if first is None or first.kind != WORD or first.low not in ENDORSING_VERBS:
                continue
            if any(t.kind == WORD and t.low in _NEGATIONS for t in sentence if t.kind not in (PUNCT, SYMBOL)):
                continue
            line = f"{source}:{block.inline.line_of(first.start, block.line)}"
            for token in sentence:
                command = token.text.split()
                if token.kind == CODE and len(command) >= 2 and command[0].replace("-", "").replace("_", "").isalnum():
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
