"""Words, code spans and sentences of one markdown block's text (the extractor's input).

A block's masked text (guidance.policy.markdown) becomes tokens: words (lowercased in `low`,
with ’ read as '), code spans (their code in `text`), quoted phrases ("Generated with Claude
Code"), punctuation, and runs of Chinese/Japanese/Korean text. Sentences end at . ! ? ;
(not after an abbreviation of lexicon.markers), at 。！？ and where a line of CJK text ends (a
line break or two spaces after it: these authors often write no full stop); a sentence is then
cut into clauses at dashes set off by spaces (" - ", " — "), which in CLAUDE.md separate a command
from what is said about it. Sentence splitting is its own layer, as in LanguageTool (SRX).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from cf_guidance.policy.lexicon.markers import ABBREVIATIONS
from cf_guidance.policy.markdown import CODE_CLOSE, CODE_OPEN

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

WORD = "w"
CODE = "c"
QUOTE = "q"
PUNCT = "p"
CJK = "j"
SYMBOL = "s"
#: the end of a line of CJK text (a sentence end the text does not mark)
LINE_END = "\n"
#: colons that introduce a list ("Never edit these:", "以下は禁止：")
COLONS = (":", "\uff1a")

_QUOTES = {'"': '"', "\u201c": "\u201d", "\u201e": "\u201c", "\u300c": "\u300d", "\u300e": "\u300f"}
_WORD_INNER = set("-_./@+#*~<>:'=$%&")
_SENTENCE_END = (".", "!", "?", ";", "\u3002", "\uff01", "\uff1f", "\uff1b", LINE_END)
_DASHES = ("-", "--", "\u2013", "\u2014", "\u2192", "=>", "->")
_ABBREVIATIONS = frozenset(a.rstrip(".") for a in ABBREVIATIONS)


@dataclass(slots=True)
class Token:
    kind: str
    text: str
    low: str
    start: int  # offset in the masked text (for line numbers)
    #: code spans: the index in the block's codes; quotes and words: -1
    index: int = -1
    #: punctuation set off by spaces on both sides (" - "), which separates clauses
    spaced: bool = False


def is_cjk(ch: str) -> bool:
    code = ord(ch)
    if code < 0x1100:
        return False
    return (0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F
            or 0xFF66 <= code <= 0xFF9F or code in (0x3005, 0x30FC))


_CJK_RANGES = "\u1100-\u11ff\u3005\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uff66-\uff9f"
_W = f"[^\\W{_CJK_RANGES}]"  # a word character that is not Chinese, Japanese or Korean
_TOKEN = re.compile(
    rf"""(?P<space>\s+)
    |{CODE_OPEN}(?P<index>\d+){CODE_CLOSE}
    |(?P<quote>["\u201c\u201e\u300c\u300e])
    |(?P<cjk>[{_CJK_RANGES}]+)
    |(?P<word>(?:(?<![^\s(/])-{{1,2}}(?=[A-Za-z])|[._~$<*@](?=\w|[/._*]))?
        (?:{_W}|[-_./@+\#*~<>:'=$%&](?={_W}|[_*<>/.~]))
        (?:{_W}|[-_./@+\#*~<>:'=$%&](?={_W}|[_*<>/.~])|[*>]|/(?=[\s.,;:)\]]|$))*)
    |(?P<mark>--|[=-]>|.)""",
    re.VERBOSE | re.DOTALL,
)
_PUNCT = set(".,;:!?()[]{}|/\\-\u2013\u2014\u2192=\u3001\u3002\uff0c\uff1a\uff01\uff1f\uff1b\uff08\uff09'\"")


def tokenize(masked: str, codes: tuple[str, ...], *, glossed: bool = True) -> list[Token]:
    """The tokens of a block's masked text; German, French, Spanish and Portuguese glossed into
    English unless `glossed` is false (the author's words, for traces)."""
    tokens: list[Token] = []
    text = masked.replace("\u2019", "'").replace("\u2018", "'")
    n = len(text)
    i = 0
    match = _TOKEN.match
    while i < n:
        found = match(text, i)
        if found is None:  # cannot happen: the last alternative takes any character
            break
        kind = found.lastgroup
        j = found.end()
        if kind == "space":
            if tokens and tokens[-1].kind == CJK and ("\n" in found.group() or len(found.group()) >= 2) and j < n:
                # Chinese, Japanese and Korean lines often end without a full stop ("禁止使用 pip\n不要提交"),
                # and some authors separate sentences with two spaces: a line break or a double space
                # after CJK text ends the sentence (in English a line break inside a paragraph does not)
                tokens.append(Token(PUNCT, LINE_END, LINE_END, i))
        elif kind == "index":
            index = int(found.group("index"))
            if index < len(codes):
                code = codes[index]
                tokens.append(Token(CODE, code, code.lower(), i, index))
        elif kind == "quote":
            close = text.find(_QUOTES[found.group("quote")], i + 1)
            inner = text[i + 1 : close] if close != -1 else ""
            if close != -1 and inner.strip() and len(inner) <= 120 and CODE_OPEN not in inner and inner.count(" ") <= 10:
                tokens.append(Token(QUOTE, inner.strip(), inner.strip().lower(), i))
                j = close + 1
        elif kind == "cjk":
            tokens.append(Token(CJK, found.group(), found.group(), i))
        elif kind == "word":
            word = found.group()
            tokens.append(Token(WORD, word, word.lower(), i))
        else:
            mark = found.group()
            spaced = (i == 0 or text[i - 1].isspace()) and (j >= n or text[j].isspace())
            tokens.append(Token(PUNCT if mark[0] in _PUNCT else SYMBOL, mark, mark, i, spaced=spaced))
        i = j
    if not glossed:
        return tokens
    # the European reader glosses German, French, Spanish and Portuguese into this module's tokens
    from cf_guidance.policy.european import gloss

    return gloss(tokens)


def sentences(tokens: list[Token]) -> list[list[Token]]:
    """Tokens split into sentences (the end mark stays with its sentence)."""
    out: list[list[Token]] = []
    current: list[Token] = []
    for k, tok in enumerate(tokens):
        current.append(tok)
        if tok.kind != PUNCT or tok.text not in _SENTENCE_END:
            continue
        if tok.text == "." and k > 0 and tokens[k - 1].kind == WORD and tokens[k - 1].low in _ABBREVIATIONS:
            continue
        if tok.text in (".", "!", "?") and k + 1 < len(tokens) and tokens[k + 1].kind == PUNCT and tokens[k + 1].text in ")\"'":
            continue
        out.append(current)
        current = []
    if current:
        out.append(current)
    return out


def split_at(tokens: list[Token], separator: Callable[[Token], bool]) -> list[list[Token]]:
    """Tokens cut at every separator (dropped with it), no empty part."""
    out: list[list[Token]] = []
    current: list[Token] = []
    for tok in tokens:
        if separator(tok):
            if current:
                out.append(current)
            current = []
        else:
            current.append(tok)
    if current:
        out.append(current)
    return out


def _spaced_dash(tok: Token) -> bool:
    return tok.kind == PUNCT and tok.spaced and tok.text in _DASHES


def clauses(sentence: list[Token]) -> list[list[Token]]:
    """A sentence cut at dashes set off by spaces ("`yarn vitest` - Run all tests"); a dash before
    "not" keeps the clause whole ("`pnpm` for all package management — not npm or yarn")."""
    kept = [Token(PUNCT, ",", ",", tok.start) if _spaced_dash(tok) and index + 1 < len(sentence)
            and sentence[index + 1].kind == WORD and sentence[index + 1].low == "not" else tok
            for index, tok in enumerate(sentence)]
    return split_at(kept, _spaced_dash)


def has_cjk(tokens: list[Token]) -> bool:
    return any(t.kind == CJK for t in tokens)


def join(tokens: list[Token]) -> str:
    """Readable text of tokens (code spans in backticks), for traces and messages."""
    parts: list[str] = []
    for tok in tokens:
        if tok.kind == PUNCT and tok.text == LINE_END:
            continue
        if tok.kind == CODE:
            parts.append(f"`{tok.text}`")
        elif tok.kind == QUOTE:
            parts.append(f'"{tok.text}"')
        elif tok.kind == PUNCT and tok.text in ",.;:!?)" and parts:
            parts[-1] += tok.text
            continue
        else:
            parts.append(tok.text)
    return " ".join(parts).replace("( ", "(")
