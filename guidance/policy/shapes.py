"""Rules about the shape of commit messages and PR titles (lexicon.shapes): the form the first
line begins with, the length it keeps to, no emoji in it, a sign-off on every commit.

`read_shape` reads one English clause into a frame whose objects say the form ("shape"
objects: {"form": "starts", "starts": [...]}, {"form": "length", "max": 72}, {"form":
"emoji"}, {"form": "signoff"}); resolve.py turns it into a `shape` check (or, for the
sign-off, an `arguments` check), with the carriers of the texts the clause, or its section,
names. A form read from a template alone (a scope shown in `type(scope): ...`) or from a list
of prefixes the author may not mean to be complete is uncertain: those checks only warn.
"""

from __future__ import annotations

import re

from cf_guidance.policy.frames import AVOID, BAN, REQUIRE, Frame, Obj
from cf_guidance.policy.lexicon import shapes as _shapes
from cf_guidance.policy.text import CODE, PUNCT, QUOTE, WORD, Token

#: require cues that make a shape rule a hard one (deny); plain imperatives ("Limit ...") warn
_STRONG = frozenset(("must", "always", "is required", "are required", "required", "required to", "is mandatory", "mandatory",
                     "have to", "has to", "need to", "needs to", "make sure", "make sure to", "ensure", "ensure that"))
_DIGITS = re.compile(r"\d\d")
_PREFIX_HINT = re.compile(r" (?:prefix|prefixed|prefixes|start|starts|begin|begins|prepend) ")
_NUMBER = re.compile(r"^(\d{2,3})(?:-(?:char|chars|character|characters|column|columns))?$")
_RULE = re.compile(r"^(\d{2,3})/(\d{2,3})$")
#: words before a length that say it is the body's, not the subject's
_BODY = frozenset(("body", "wrap", "wrapped", "lines", "line-length", "paragraphs", "description", "descriptions"))
_PREFIX_VERBS = (("prefix",), ("prefixed",), ("prefixes",), ("start", "with"), ("starts", "with"), ("begin", "with"),
                 ("begins", "with"), ("start", "each"), ("prepend",))


def strong(cues: list[tuple[int, int, str, str]]) -> bool:
    """A hard rule ("must", "always", a ban): its certain readings deny."""
    return any(c[2] == BAN or c[2] == REQUIRE and strong_cue(c[3]) for c in cues)


def strong_cue(cue: str) -> bool:
    """A require cue that makes a rule a hard one ("must", "always"), not a plain imperative."""
    return cue.lower() in _STRONG


def surfaces_of(words: list[str]) -> list[str]:
    """Which texts the words name: "commit" messages, PR "title"s, the "body" of a PR, an issue
    or a comment ("PR descriptions", "issue comments")."""
    text = f" {' '.join(words)} "
    out = []
    if any(f" {w} " in text for w in _shapes.COMMIT_WORDS):
        out.append("commit")
    # "PRs" is their titles; "PR descriptions" their bodies only
    after = [text[i + len(w) + 2:].split()[:1] for w in _shapes.PR_WORDS for i in _spots(text, f" {w} ")]
    if any(not a or a[0] not in _shapes.BODY_WORDS for a in after):
        out.append("title")
    if any(a and a[0] in _shapes.BODY_WORDS for a in after) or any(f" {w} " in text for w in _shapes.TEXT_WORDS):
        out.append("body")
    return out


_TYPE_SPAN = re.compile(r"^([a-z][a-z0-9-]{1,15})(?:\([^)\s]*\))?!?:?$")


def listed_types(tokens: list[Token]) -> list[str]:
    """The commit types a block lists ("Types: feat, fix, deps", "`feat:`, `deps:`"): a convention
    named in the same block allows them as well as its own."""
    out = [m.group(1) for t in tokens if t.kind == CODE and (m := _TYPE_SPAN.match(t.text.strip()))]
    for k, tok in enumerate(tokens):
        if tok.kind != WORD or tok.low not in _shapes.TYPE_LABELS or k + 1 >= len(tokens) or tokens[k + 1].text != ":":
            continue
        # "Types: feat, fix, docs, perf, deps": the bare words of the list, up to its end
        for item in tokens[k + 2:]:
            if item.kind == WORD and _TYPE_SPAN.match(item.low) and item.low not in ("and", "or"):
                out.append(item.low)
            elif not (item.kind == PUNCT and item.text in (",", "/") or item.kind == WORD and item.low in ("and", "or")
                      or item.kind == CODE):
                break
    return list(dict.fromkeys(out))


def _spots(text: str, needle: str) -> list[int]:
    out, at = [], text.find(needle)
    while at >= 0:
        out.append(at)
        at = text.find(needle, at + 1)
    return out


def read_shape(tokens: list[Token], cues: list[tuple[int, int, str, str]], following: list[Obj],
               texts: list[str] | None = None, texts_cue: str = "") -> list[Frame]:
    """The shape rules one clause states ("subjects of at most 72 characters and no emoji": two);
    `following`: what the code block after a clause ending in a colon holds ("Use this format:");
    `texts` and `texts_cue`: what a list's intro requires ("Commits MUST:"), for an item with no cue
    of its own ("- not end with a period" is a ban under it)."""
    words = [t.low for t in tokens if t.kind == WORD]
    if not words:
        return []
    text = f" {' '.join(words)} "
    inherited = not cues and bool(texts_cue)
    if inherited:
        cues = [(0, 0, BAN if words[0] in ("not", "no") else REQUIRE, texts_cue)]
    banned = any(c[2] in (BAN, AVOID) for c in cues)
    # every clause passes here: each reading runs only when its words are there
    spans = any(t.kind in (CODE, QUOTE) for t in tokens)
    starts = ((_template(tokens, following, banned) if spans or following else None)
              or (_scope(text, cues, banned) if "scope" in text else None)
              or (_prefixes(tokens, words, banned) if spans and _PREFIX_HINT.search(text) else None))
    found = [f for f in (_signoff(text, words, cues, banned) if "sign" in text or " dco " in text else None,
                         _gpg(text, cues, banned) if " gpg" in text or " sign" in text else None,
                         _emoji(tokens, banned) if "emo" in text else None,
                         _length(tokens, words, banned) if _DIGITS.search(text) else None,
                         _period(text, banned) if " period " in text or " full stop " in text else None,
                         _mood(text, banned) if " imperative" in text or " tense " in text else None,
                         _reference(words, cues, banned) if " issue" in text or " ticket" in text else None,
                         _dash(tokens, banned) if " dash" in text or " em-dash" in text or "\u2014" in text else None,
                         _forbidden_start(tokens, banned) if spans and banned and _PREFIX_HINT.search(text) else None,
                         starts) if f]
    frames = []
    for meaning, note, certain in found:
        # "No emoji", "requires a sign-off": the words themselves are a hard rule
        hard = bool(meaning.pop("hard", False))
        if inherited:
            meaning.pop("heading", None)  # "Commits MUST:" then "- not end with a period": the intro names the text
        frame = Frame(BAN if banned else REQUIRE, "shape", requirement="shape",
                      objects=[Obj("shape", note, meaning={**meaning, "certain": certain})],
                      # a signature or a sign-off is on commits, named or not ("GPG signing mandatory")
                      surfaces=surfaces_of(words) or list(texts or ()) or (["commit"] if meaning.get("form") in ("gpg", "signoff") else []),
                      notes=[note])
        frame.cue = next((c[3] for c in cues if c[2] in (BAN, AVOID, REQUIRE)), "") or "shape"
        frame.verb = "strong" if (hard or strong(cues)) and certain else ""
        frame.start = tokens[0].start
        frames.append(frame)
    return frames


def _signoff(text: str, words: list[str], cues: list[tuple[int, int, str, str]], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    if banned or " not " in text or not any(f" {w} " in text for w in _shapes.SIGNOFF_WORDS):
        return None
    if "commit" not in text and " dco " not in text:
        return None
    # a rule, not a description of what a sign-off is: a cue, "requires", or the imperative "sign off ..."
    if not (cues or words[0] in ("sign", "always", "use") or " requires " in text or " required " in text):
        return None
    return ({"form": "signoff", "hard": " requires " in text or " required " in text},
            "every commit carries a sign-off (`git commit -s`)", True)


def _gpg(text: str, cues: list[tuple[int, int, str, str]], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Commits must be GPG signed", "only signed commits are accepted": every commit carries `-S`."""
    if banned or " not " in text or not (cues or " required " in text or " accepted " in text):
        return None
    if "commit" not in text and not any(f" {w} " in text for w in _shapes.GPG_OWN_WORDS):
        return None  # "GPG signing mandatory" is about commits; "binaries are signed" is not
    if not any(f" {w} " in text for w in _shapes.GPG_WORDS):
        return None
    return {"form": "gpg", "hard": " required " in text or " mandatory " in text}, "every commit is signed (`git commit -S`)", True


def _emoji(tokens: list[Token], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    for k, tok in enumerate(tokens):
        if tok.kind == WORD and (tok.low in _shapes.EMOJI_WORDS or k + 1 < len(tokens)
                                 and f"{tok.low} {tokens[k + 1].low}" in _shapes.EMOJI_WORDS):
            before = [t.low for t in tokens[max(0, k - 3):k] if t.kind == WORD]
            after = tokens[k + 1].low if k + 1 < len(tokens) else ""
            if after in _shapes.SIGNATURE_WORDS:
                return None  # "no emoji signatures", "a robot emoji footer": an attribution (lexicon.nouns)
            if banned or any(w in _shapes.NO_WORDS for w in before):
                return {"form": "emoji", "hard": not banned}, "no emoji in the message", True
            return None
    return None


def _length(tokens: list[Token], words: list[str], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    for k, tok in enumerate(tokens):
        rule = _RULE.match(tok.low) if tok.kind == WORD else None
        if rule and k + 1 < len(tokens) and tokens[k + 1].low == "rule":
            # "the 50/72 rule": a subject of 50, a body wrapped at 72
            return {"form": "length", "max": int(rule.group(1))}, f"the first line keeps to {rule.group(1)} characters", True
    # "### Subject" then "- Max 50 characters": the heading says which line (resolve checks it)
    named = any(f" {n} " in f" {' '.join(words)} " for n in _shapes.SUBJECT_NOUNS)
    for k, tok in enumerate(tokens):
        if tok.kind != WORD:
            continue
        number = _NUMBER.match(tok.low)
        if number is None:
            continue
        unit = "-" in tok.low or k + 1 < len(tokens) and tokens[k + 1].low in _shapes.LENGTH_UNITS
        limit = int(number.group(1))
        if not unit or not 20 <= limit <= 200:
            continue
        # "Keep the subject under 50 characters, wrap the body at 72": the number the subject's part of the clause gives
        part = []
        for t in reversed(tokens[:k]):
            if t.kind != WORD and t.text in (",", ";", "."):
                break
            part.append(t.low)
        if _BODY & set(part) and not any(n in " ".join(reversed(part)) for n in ("subject", "title", "first line", "header")):
            continue
        if banned and not any(t.low in ("exceed", "exceeding", "longer", "over", "more") for t in tokens[:k]):
            return None  # "never use 80 characters": not a limit
        return {"form": "length", "max": limit, "heading": not named}, f"the first line keeps to {limit} characters", True
    return None


def _period(text: str, banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Do not end the subject line with a period", "No period at the end" (under "### Subject")."""
    if not (banned or " no period " in text or " no full stop " in text) or not any(f" {w} " in text for w in ("end", "ending", "trailing")):
        return None
    named = any(f" {n} " in text for n in _shapes.SUBJECT_NOUNS)
    return {"form": "period", "heading": not named, "hard": not banned}, "the first line does not end with a period", True


def _mood(text: str, banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Use the imperative mood in the subject line", "never use the past tense": the first verb
    is no past tense. Its one sure sign is a word like "Added": the reading only warns."""
    words = _shapes.PAST_WORDS if banned else _shapes.MOOD_WORDS
    if not any(f" {w} " in text for w in words):
        return None
    return {"form": "mood", "heading": False}, "the first line begins with a verb in the imperative (`Add`, not `Added`)", False


def _reference(words: list[str], cues: list[tuple[int, int, str, str]], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"PR descriptions must reference the issue", "Every PR must link to an issue": the text holds
    an issue reference; the words may differ from `Fixes #123` (a link, a key): the reading warns."""
    if banned or any(w in _shapes.REFERENCE_OPTIONAL for w in words):
        return None
    at = next((k for k, w in enumerate(words) if w in _shapes.REFERENCE_VERBS), None)
    if at is None or not any(w in _shapes.ISSUE_WORDS for w in words[at + 1:at + 6]):
        return None
    if not (any(c[2] == REQUIRE for c in cues) or at == 0):
        return None  # "Check the linked issue": no rule about the text
    return {"form": "reference"}, "the text references its issue (`Fixes #123`, a link, a key)", False


def _dash(tokens: list[Token], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"No em dashes in commit messages or PR descriptions": the text holds no `—` (nor `–` when en
    dashes are named too)."""
    words = [t.low for t in tokens if t.kind == WORD]
    joined = f" {' '.join(words)} "
    if not (banned or any(f" {w} " in joined for w in _shapes.NO_WORDS)):
        return None
    chars = [ch for names, ch in _shapes.DASH_WORDS if any(f" {n} " in joined or n in {t.text for t in tokens} for n in names)]
    if not chars:
        return None
    return {"form": "dash", "chars": chars, "hard": not banned}, "no " + " or ".join(f"`{c}`" for c in chars) + " in the text", True


def _forbidden_start(tokens: list[Token], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Commit messages must not begin with "WIP"", "never start a subject with `fixup`": the first
    line does not begin with the quoted words."""
    at = next((k for k, t in enumerate(tokens) if t.kind == WORD and any(
        [x.low for x in tokens[k:k + len(v)]] == list(v) for v in _PREFIX_VERBS + (("start",), ("begin",)))), None)
    literals = [t.text.strip() for t in tokens[at or 0:] if t.kind in (CODE, QUOTE) and 0 < len(t.text.strip()) <= 24]
    if not banned or at is None or not literals or not surfaces_of([t.low for t in tokens[:at] if t.kind == WORD]
                                                                  + [t.low for t in tokens[at:] if t.kind == WORD][:8]):
        return None
    return {"form": "unstarts", "starts": literals}, "the first line does not begin with " + ", ".join(literals[:4]), True


def _template(tokens: list[Token], following: list[Obj], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    if banned:
        return None
    # the clause's own code spans, else the first line of the block it introduces
    spans = [t.text for t in tokens if t.kind == CODE] or [o.text for o in following if o.role == "block"][:1]
    for span in spans:
        found = template_forms(span)
        if found is not None:
            forms, certain = found
            return {"form": "starts", "starts": forms}, f"the first line follows `{span}`", certain
    return None


def _scope(text: str, cues: list[tuple[int, int, str, str]], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Always include a scope", "the scope is required": every subject is `type(scope): ...`;
    not when the text lets it be left out ("if the change is about one package", "when possible")."""
    if banned or not any(f" {w} " in text for w in ("scope", "scopes")):
        return None
    if any(f" {w} " in text for w in _shapes.SCOPE_OPTIONAL):
        return None
    if not (any(c[2] == REQUIRE for c in cues) or " required " in text or " mandatory " in text):
        return None
    if not any(f" {w} " in text for w in ("include", "includes", "required", "mandatory", "use", "have", "has", "need", "needs")):
        return None
    return ({"form": "starts", "starts": ["*(*):", "*(*)!:"], "hard": " required " in text or " mandatory " in text},
            "the first line names a scope: `type(scope): ...`", True)


def _prefixes(tokens: list[Token], words: list[str], banned: bool) -> tuple[dict[str, object], str, bool] | None:
    """"Use `fix:`, `feat:` prefixes", "Prefix commit messages with `[ios]`, `[android]`": the
    subject begins with one of them (the list may not be complete: warn)."""
    if banned:
        return None
    at = next((k for k, t in enumerate(tokens) if t.kind == WORD and any(
        [x.low for x in tokens[k:k + len(v)]] == list(v) for v in _PREFIX_VERBS)), None)
    if at is None:
        return None
    literals = [t.text.strip() for t in tokens if t.kind in (CODE, QUOTE) and _prefix_like(t.text.strip())]
    sample = _example_prefix(tokens, at)
    if not literals and sample is None:
        return None
    between = [t.low for t in tokens[at:] if t.kind == WORD][:8]
    # what is prefixed: commit messages or PR titles ("Prefix dependency updates with ..." is one kind of
    # commit), named after the verb or as its subject ("PR titles must start with `feat:` or `fix:`")
    subject = [t.low for t in tokens[:at] if t.kind == WORD][-6:]
    named = between if surfaces_of(between) else subject
    if tokens[at].low != "prefixes" and not surfaces_of(named):
        return None
    if _scoped(words, named):
        return None
    if not literals and sample is not None:
        # "begin with the area in brackets, e.g. `[parser] Fix crash`": the example shows the form, any area
        return {"form": "starts", "starts": [sample]}, f"the first line begins with `{sample}`", False
    # a type written `fix:` also begins a scoped or breaking subject (`fix(api):`, `fix!:`)
    forms = [f for p in literals for f in ([p, f"{p[:-1]}(*):", f"{p[:-1]}!:", f"{p[:-1]}(*)!:"] if p[:-1].isalpha() else [p])]
    return {"form": "starts", "starts": forms}, "the first line begins with " + ", ".join(literals[:4]), False


def _example_prefix(tokens: list[Token], at: int) -> str | None:
    """"Start PR titles with the component in brackets, e.g. `[cli] Add flag`": the form an example
    after the verb shows, its part a placeholder word names (`[*]`, `*:`); None without one."""
    from cf_guidance.policy.frames import match  # the shape reader builds on that module's tables

    mark = next((k for k in range(at, len(tokens)) if match(tokens, k, "examples") is not None), None)
    if mark is None or not any(t.kind == WORD and t.low in _shapes.PLACEHOLDER_WORDS for t in tokens[at:mark]):
        return None
    code = next((t.text.strip() for t in tokens[mark:] if t.kind in (CODE, QUOTE)), "")
    head = code.split()[0] if code.split() else ""
    if any(ch.isdigit() for ch in head):
        return None  # `PROJ-123:` shows a ticket id, which no pattern of its own checks here
    if head.startswith("[") and head.endswith("]") and len(head) > 2:
        return "[*]"
    if head.endswith(":") and len(head) > 1 and head[:-1].replace("-", "").isalnum():
        return "*:"
    return None


def _scoped(words: list[str], between: list[str]) -> bool:
    """A prefix for some messages only: the clause opens with a situation ("when working on the web
    client, ...") or a word before "commits" narrows them ("test-only commits")."""
    opening = " ".join(words[:3])
    if any(opening == o or opening.startswith(o + " ") for o in _shapes.SCOPED_PREFIX_OPENERS):
        return True
    at = next((k for k, w in enumerate(between) if surfaces_of([w])), None)
    if not at:
        return False
    return between[at - 1] not in _shapes.UNSCOPED_BEFORE and not surfaces_of([between[at - 1]])


def _prefix_like(text: str) -> bool:
    """`fix:`, `[ios]`: a literal prefix (`PROJ-123:` is an example of a ticket id, not a prefix to copy)."""
    if not text or len(text) > 24 or "$" in text or any(ch.isdigit() for ch in text):
        return False
    if text.startswith("[") and text.endswith("]") and " " not in text:
        return True
    return text.endswith(":") and " " not in text and text[:-1].replace("-", "").replace("(", "").replace(")", "").isalnum()


# --- templates --------------------------------------------------------------------------------

_SCOPED = re.compile(r"^(?P<type>[^\s(\[!:]+)\s*(?P<scope>\(\s*[^)]*\)\??|\[\s*\(?[^\]]*\)?\s*\])?(?P<bang>!?)\s*:\s*(?P<rest>.+)$")
_BRACKETED = re.compile(r"^\[(?P<part>[^\]]+)\]\s+(?P<rest>.+)$")


def _placeholder(part: str) -> bool:
    """`<type>`, `{scope}`, `TYPE`, `type`, `optional scope`: a part that stands for a value."""
    bare = part.strip().strip("<>{}[]()").strip()
    if not bare:
        return False
    if part.strip()[:1] in "<{" or bare.isupper() and len(bare) > 2:
        return True
    return " ".join(w for w in bare.lower().replace("_", " ").replace("-", " ").split() if w not in _shapes.OPTIONAL_WORDS) in \
        _shapes.PLACEHOLDER_WORDS or bare.lower() in _shapes.PLACEHOLDER_WORDS


def template_forms(code: str) -> tuple[list[str], bool] | None:
    """The forms a subject written after the template `code` begins with, and whether the reading
    is certain; None when `code` is no template (an example message, a command)."""
    line = code.strip().split("\n", 1)[0]
    bracketed = _BRACKETED.match(line)
    if bracketed and _placeholder(bracketed.group("part")) and _placeholder(_first_part(bracketed.group("rest"))):
        return ["[*]"], True
    scoped = _SCOPED.match(line)
    if scoped is None or not _placeholder(_first_part(scoped.group("rest"))):
        return None
    kind = scoped.group("type")
    if "|" in kind:
        types = [t for t in kind.strip("<>{}()").split("|") if t.isalpha()]
    elif _placeholder(kind):
        types = ["*"]
    else:
        return None
    scope = scoped.group("scope") or ""
    if not scope:
        return [f for t in types for f in (f"{t}:", f"{t}!:")], True
    if not _placeholder(scope.strip("?")):
        return None
    scoped_forms = [f for t in types for f in (f"{t}(*):", f"{t}(*)!:")]
    optional = scope.startswith("[") or scope.endswith("?") or any(w in scope.lower() for w in _shapes.OPTIONAL_WORDS)
    if optional:
        return [f for t in types for f in (f"{t}:", f"{t}!:")] + scoped_forms, True
    # a scope the template shows may still be left out in practice: the reading is not certain
    return scoped_forms, False


def _first_part(rest: str) -> str:
    """The first part after the prefix: `<description>` of `<description> (#123)`."""
    rest = rest.strip()
    if rest[:1] in "<{[":
        close = {"<": ">", "{": "}", "[": "]"}[rest[0]]
        return rest[: rest.find(close) + 1] if close in rest else rest
    return " ".join(rest.split()[:2]) if _placeholder(" ".join(rest.split()[:2])) else rest.split()[0] if rest.split() else ""
