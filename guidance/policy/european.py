"""German, French, Spanish, Portuguese and Italian blocks glossed into English (their words are in lexicon/european.py).

A block's tokens are glossed when its words are more of one of these languages than of English:
each phrase of the language's table (longest first; a French elision such as "n'" is a word of its
own) becomes the English words it reads as, at the place of the phrase (so lines and traces still
point at the author's text), and what no table knows stays as it is. Then, clause by clause (a
clause ends at , ; : . ! ? a parenthesis or a dash set off by spaces), words are put where English
puts them:

- a verb before its rule word ("N'utilisez pas", "Usa siempre", "Führe niemals `x` aus") goes
  after it;
- a German verb that ends its clause ("Niemals `x` ausführen", "`x` nicht bearbeiten") goes after
  the rule words and the moment that open the clause, and the rule words written after the object
  come with it; the separable part of a German verb ("aus") at the end is dropped;
- "not" or "no" right before a verb reads "do not".

The English reader (guidance.policy.frames) then reads the block like any other, with its conditions,
objects, substitutions and orderings.
"""

from __future__ import annotations

from functools import lru_cache

from cf_guidance.policy.lexicon import european as _lex
from cf_guidance.policy.text import PUNCT, WORD, Token

#: punctuation that ends a clause for the reordering
_CLAUSE_ENDS = frozenset((",", ";", ":", ".", "!", "?", "(", ")", "\n"))
_DASHES = frozenset(("-", "--", "\u2013", "\u2014"))
#: glossed words that open a clause of their own, ended by its comma
_SUBORDINATE = frozenset(("when", "if", "before", "after", "unless", "without"))
#: kinds that may open a clause before a moved German verb
_OPENING = frozenset(("neg", "only", "lead"))


@lru_cache(maxsize=None)
def _index(lang: str) -> dict[str, list[tuple[tuple[str, ...], _lex.Gloss]]]:
    """First word -> [(words, entry)] of one language, longest first."""
    out: dict[str, list[tuple[tuple[str, ...], _lex.Gloss]]] = {}
    for entry in _lex.GLOSSES:
        for phrase in entry.words.get(lang, ()):
            words = tuple(_split_elisions(phrase.split()))
            out.setdefault(words[0], []).append((words, entry))
    for candidates in out.values():
        candidates.sort(key=lambda c: -len(c[0]))
    return out


@lru_cache(maxsize=None)
def _vocabulary() -> dict[str, frozenset[str]]:
    """The words that say a block is in a language (not those English writes too)."""
    out: dict[str, frozenset[str]] = {}
    for lang in _lex.LANGUAGES:
        words = {w for entry in _lex.GLOSSES for phrase in entry.words.get(lang, ()) for w in _split_elisions(phrase.split())}
        words |= set(_lex.FUNCTION_WORDS[lang])
        out[lang] = frozenset(words - _lex.ENGLISH_WORDS - _lex.SHARED_WORDS)
    return out


@lru_cache(maxsize=None)
def _any_word() -> frozenset[str]:
    return frozenset().union(*_vocabulary().values())


def _split_elisions(words: list[str]) -> list[str]:
    out: list[str] = []
    for word in words:
        elision = next((e for e in _lex.ELISIONS if word.startswith(e) and len(word) > len(e)), None)
        out += [elision, word[len(elision):]] if elision else [word]
    return out


def language(words: list[str]) -> str:
    """The language of a block's words ("" for English or none of the table's): the one with the
    most words of its own, when it has more of them than English has, and two of them unless the
    block holds no word it does not know ("PROHIBIDO" is Spanish, "No em dashes" is not Portuguese)."""
    english = sum(1 for w in words if w in _lex.ENGLISH_WORDS and w not in _lex.SHARED_WORDS)
    best, score = "", 0
    for lang, vocabulary in _vocabulary().items():
        count = sum(1 for w in words if w in vocabulary)
        if count > score:
            best, score = lang, count
    if score <= english:
        return ""
    known = _vocabulary()[best] | _lex.SHARED_WORDS
    return best if score >= 2 or all(w in known for w in words) else ""


def gloss(tokens: list[Token]) -> list[Token]:
    """The tokens of a block, glossed into English when the block is German, French, Spanish or
    Portuguese; otherwise the same list."""
    lows = _split_elisions([t.low for t in tokens if t.kind == WORD])
    if not lows or _any_word().isdisjoint(lows):
        return tokens  # most blocks: English, no word of these languages
    lang = language(lows)
    if not lang:
        return tokens
    words: list[tuple[Token, str, str]] = []  # (token, word, kind); kind "" for a token no table knows
    for tok in tokens:
        if tok.kind == WORD:
            words += [(tok, w, "?") for w in _split_elisions([tok.low])]
        else:
            words.append((tok, "", ""))
    index = _index(lang)
    out: list[tuple[Token, str]] = []  # (token, kind)
    k = 0
    while k < len(words):
        tok, word, _ = words[k]
        found = None
        if word:
            for phrase, entry in index.get(word, ()):
                if all(k + m < len(words) and words[k + m][1] == phrase[m] for m in range(len(phrase))):
                    found = (phrase, entry)
                    break
        if found is None:
            out.append((tok, "") if not word or tok.low == word else (Token(WORD, word, word, tok.start), ""))
            k += 1
            continue
        phrase, entry = found
        if entry.kind == "particle":
            out.append((tok, "particle"))
        else:
            out += [(Token(WORD, w, w, tok.start), entry.kind) for w in entry.english.split()]
        k += len(phrase)
    return _reordered(out, lang)


def _clause_end(tok: Token) -> bool:
    return tok.kind == PUNCT and (tok.text in _CLAUSE_ENDS or tok.spaced and tok.text in _DASHES)


def _reordered(items: list[tuple[Token, str]], lang: str) -> list[Token]:
    out: list[tuple[Token, str]] = []
    clause: list[tuple[Token, str]] = []
    end = (Token(PUNCT, "\n", "\n", -1), "")  # closes the last clause; not a token of the block
    for item in items + [end]:
        if not _clause_end(item[0]) or item[0].text == "," and not any(kind == "verb" for _, kind in clause) and not (
                clause and clause[0][0].low in _SUBORDINATE):
            # "Niemals Dateien, Ordner oder Code löschen": a comma before the verb separates its objects
            # (not after "Wenn die Tests fehlschlagen,", a clause of its own)
            clause.append(item)
            continue
        out += _clause(clause, lang)
        if item is not end:
            out.append(item)
        clause = []
    # "Nie committen, wenn die Tests fehlschlagen": these languages set a comma before "when", English
    # does not, and the English reader reads the condition only without it
    return [tok for m, (tok, _) in enumerate(out) if not (tok.kind == PUNCT and tok.text == "," and m + 1 < len(out)
                                                          and out[m + 1][1] == "when")]


def _forbidden_to(clause: list[tuple[Token, str]], lang: str) -> list[tuple[Token, str]]:
    """"Está prohibido ejecutar `x`", "Il est interdit de lancer `x`", "Es ist verboten, `x` auszuführen": a
    clause that opens with "(it) is forbidden" and has a verb after it bans that verb, read as "never <verb>"
    (where the object comes first, "`x` está prohibido", it is read as written: "`x` is forbidden")."""
    k = 0
    while k < len(clause) and clause[k][0].low == "is" and not clause[k][1]:
        k += 1
    if k == len(clause) or clause[k][1] != "forbid" or not any(kind == "verb" for _, kind in clause[k + 1:]):
        return clause
    rest = clause[k + 1:]
    # the comma and the infinitive's particle between them ("verboten, ... zu", "interdit de", "vietato di")
    while rest and not rest[0][1] and (rest[0][0].text == "," or rest[0][0].low in _lex.FUNCTION_WORDS[lang]):
        rest = rest[1:]
    return [(Token(WORD, "never", "never", clause[k][0].start), "neg")] + rest


def _clause(clause: list[tuple[Token, str]], lang: str) -> list[tuple[Token, str]]:
    if not clause:
        return clause
    clause = _forbidden_to(clause, lang)
    verbs = [k for k, (_, kind) in enumerate(clause) if kind == "verb"]
    if clause[-1][1] == "particle" and verbs:
        clause = clause[:-1]  # "Führe `x` niemals aus": the verb's separable part
    clause = [(t, kind) if kind != "particle" else (t, "") for t, kind in clause]
    if verbs and lang == "de" and clause[-1][1] == "verb" and len(verbs) == 1 and verbs[0] == len(clause) - 1:
        # "Niemals `x` ausführen", "`x` nicht bearbeiten": the verb after the rule words, its objects
        # after it, and the moment that opens the clause last ("Vor jedem Commit `x` ausführen": run `x`
        # before committing)
        verb = clause[-1]
        start = 0
        while start < len(clause) - 1 and clause[start][1] in _OPENING:
            start += 1
        opening = clause[:start]
        heads = [item for item in opening if item[1] != "lead"] + [item for item in clause[start:-1] if item[1] == "neg"]
        leads = [item for item in opening if item[1] == "lead"]
        rest = [item for item in clause[start:-1] if item[1] != "neg"]
        clause = heads + [verb] + rest + leads
    verbs = [k for k, (_, kind) in enumerate(clause) if kind == "verb"]
    if verbs and verbs[0] == 0 or verbs and clause[verbs[0] + 1:verbs[0] + 2] and clause[verbs[0] + 1][1] == "neg":
        # "N'utilisez pas `x`", "Usa siempre `x`", "Führe niemals `x` aus": the rule word before its verb
        k = verbs[0]
        m = next((m for m in range(k + 1, len(clause)) if clause[m][1] in ("neg", "verb")), None)
        if m is not None and clause[m][1] == "neg":
            clause = clause[:k] + [clause[m]] + clause[k:m] + clause[m + 1:]
    out: list[tuple[Token, str]] = []
    for k, (tok, kind) in enumerate(clause):
        if kind == "neg" and tok.low in ("not", "no") and k + 1 < len(clause) and clause[k + 1][0].low == "never":
            continue  # "No ejecutar nunca `x`", the verb's "never" moved before it above: "never" says it all
        if kind == "neg" and tok.low in ("not", "no") and k + 1 < len(clause) and clause[k + 1][1] == "verb":
            never = next((m for m in range(k + 2, len(clause)) if clause[m][0].low == "never"), None)
            if never is not None:
                # "No ejecutes nunca `x`", "Non usare mai `x`", "Não use nunca `x`": these languages say "never"
                # with the negation as well; English says it once, before the verb
                out.append(clause[never])
                out += [item for m, item in enumerate(clause[k + 1:], k + 1) if m != never]
                return out
            out += [(Token(WORD, "do", "do", tok.start), ""), (Token(WORD, "not", "not", tok.start), "neg")]
            continue
        out.append((tok, kind))
    return out


__all__ = ["gloss", "language"]

