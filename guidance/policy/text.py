"""Words, code spans and sentences of one markdown block's text (the extractor's input).

A block's masked text (guidance.policy.markdown) becomes tokens: words (lowercased in `low`,
with ’ read as '), code spans (their code in `text`), quoted phrases ("Generated with Claude
Code"), punctuation, and runs of Chinese/Japanese/Korean text. Sentences end at . ! ? ;
(not after an abbreviation of lexicon.markers) and at 。！？; a sentence is then cut into
clauses at dashes set off by spaces (" - ", " — "), which in CLAUDE.md separate a command
from what is said about it. Sentence splitting is its own layer, as in LanguageTool (SRX).
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon.markers import ABBREVIATIONS
from cf_guidance.policy.markdown import CODE_CLOSE, CODE_OPEN

WORD = "w"
CODE = "c"
QUOTE = "q"
PUNCT = "p"
CJK = "j"
SYMBOL = "s"

_QUOTES = {'"': '"', "\u201c": "\u201d", "\u201e": "\u201c", "\u300c": "\u300d", "\u300e": "\u300f"}
_WORD_INNER = set("-_./@+#*~<>:'=$%&")
_SENTENCE_END = (".", "!", "?", ";", "\u3002", "\uff01", "\uff1f", "\uff1b")
_DASHES = ("-", "--", "\u2013", "\u2014", "\u2192", "=>", "->")
_ABBREVIATIONS = frozenset(a.rstrip(".") for a in ABBREVIATIONS)


@dataclass
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
    return (0x3040 <= code <= 0x30FF or 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF
            or 0xAC00 <= code <= 0xD7AF or 0x1100 <= code <= 0x11FF or 0x3130 <= code <= 0x318F
            or 0xFF66 <= code <= 0xFF9F or code in (0x3005, 0x30FC))


def tokenize(masked: str, codes: tuple[str, ...]) -> list[Token]:
    tokens: list[Token] = []
    text = masked.replace("\u2019", "'").replace("\u2018", "'")
    n = len(text)
    i = 0
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if ch == CODE_OPEN:
            end = text.find(CODE_CLOSE, i)
            if end == -1:
                i += 1
                continue
            index_text = text[i + 1 : end]
            if index_text.isdigit() and int(index_text) < len(codes):
                code = codes[int(index_text)]
                tokens.append(Token(CODE, code, code.lower(), i, int(index_text)))
            i = end + 1
            continue
        if ch in _QUOTES:
            close = text.find(_QUOTES[ch], i + 1)
            inner = text[i + 1 : close] if close != -1 else ""
            if close != -1 and inner.strip() and len(inner) <= 120 and CODE_OPEN not in inner and inner.count(" ") <= 10:
                tokens.append(Token(QUOTE, inner.strip(), inner.strip().lower(), i))
                i = close + 1
                continue
            i += 1
            continue
        if is_cjk(ch):
            j = i
            while j < n and is_cjk(text[j]):
                j += 1
            tokens.append(Token(CJK, text[i:j], text[i:j], i))
            i = j
            continue
        option = ch == "-" and (i == 0 or text[i - 1].isspace() or text[i - 1] in "(/") and i + 1 < n and (
            text[i + 1].isalpha() or (text[i + 1] == "-" and i + 2 < n and text[i + 2].isalpha()))
        dotted = ch in "._~$<*@" and i + 1 < n and (text[i + 1].isalnum() or text[i + 1] in "/._*")
        if ch.isalnum() or option or dotted:
            j = i
            while j < n and text[j] == "-":
                j += 1
            while j < n:
                c = text[j]
                if (c.isalnum() and not is_cjk(c)) or c == "_":
                    j += 1
                elif c in _WORD_INNER and j + 1 < n and ((text[j + 1].isalnum() and not is_cjk(text[j + 1])) or text[j + 1] in "_*<>/.~"):
                    j += 1
                elif c in "*>" and j > i:
                    j += 1
                else:
                    break
            if j == i:
                j = i + 1
            word = text[i:j]
            tokens.append(Token(WORD, word, word.lower(), i))
            i = j
            continue
        # punctuation and symbols; a dash between spaces separates clauses
        j = i + 1
        if ch == "-" and j < n and text[j] == "-":
            j += 1
        if ch in "=-" and j < n and text[j] == ">":
            j += 1
        mark = text[i:j]
        spaced = (i == 0 or text[i - 1].isspace()) and (j >= n or text[j].isspace())
        kind = PUNCT if (ch in ".,;:!?()[]{}|/\\-\u2013\u2014\u2192=\u3001\u3002\uff0c\uff1a\uff01\uff1f\uff1b\uff08\uff09" or ch in "'\"") else SYMBOL
        tokens.append(Token(kind, mark, mark, i, spaced=spaced))
        i = j
    return tokens


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


def clauses(sentence: list[Token]) -> list[list[Token]]:
    """A sentence cut at dashes set off by spaces ("`yarn vitest` - Run all tests")."""
    out: list[list[Token]] = []
    current: list[Token] = []
    for tok in sentence:
        if tok.kind == PUNCT and tok.spaced and tok.text in _DASHES:
            if current:
                out.append(current)
            current = []
            continue
        current.append(tok)
    if current:
        out.append(current)
    return out


def has_cjk(tokens: list[Token]) -> bool:
    return any(t.kind == CJK for t in tokens)


def join(tokens: list[Token]) -> str:
    """Readable text of tokens (code spans in backticks), for traces and messages."""
    parts: list[str] = []
    for tok in tokens:
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
