"""Chinese, Japanese and Korean clauses read into frames (their words are in lexicon/cjk.py).

A clause is scanned into units: the table words its CJK text holds (longest match first, so 用户
"user" is not 用 "use"), its code spans, paths, program names and commands written without
backticks ("git reset --hard"), and the punctuation that separates clauses in these languages
(，、；：() and their ASCII forms). Units are grouped into segments at that punctuation. A segment
that only names things (an enumeration: "`a`、`b` は編集しない", "禁止使用 pip、conda") joins the
nearest segment with a cue, first on the side where the language puts its cue (after the verb in
Japanese and Korean, before it in Chinese).

Each segment becomes a frame of the model the English reader uses (guidance.policy.frames), so
verdicts, confidences, alternatives, conditions and orderings are resolved by the same code:
the segment's cue (or the heading's or the intro's), its verbs, its objects and target branches,
the sentence's condition. A substitution ("X ではなく Y", "用 Y 代替 X", "X 대신 Y") warns about
one side and names the other; an ordering (前に, 之前, 전에; してから, 再, 후에) becomes a
sequence, or a question when what comes first is asking the user. Nouns that stand for actions
(ブランチ作成, PR 作成, 提交, 브랜치 생성) are given the actions they stand for. Every decision
is written to the frame's notes (`cf-guidance compile --explain LINE`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from cf_guidance.policy.frames import ASK, AVOID, BAN, ONLY, REQUIRE, Context, Frame, Obj, Ordering, named_remotes
from cf_guidance.policy.frames import _pathlike as pathlike
from cf_guidance.policy.lexicon import cjk as _lex
from cf_guidance.policy.lexicon import nouns as _nouns
from cf_guidance.policy.lexicon.programs import KNOWN_PROGRAMS
from cf_guidance.policy.text import CJK, CODE, COLONS, PUNCT, QUOTE, SYMBOL, WORD, Token, join

#: punctuation that separates the clauses of a CJK sentence
_BOUNDARIES = frozenset(("\uff0c", ",", "\u3001", "\uff1b", ";", "\uff1a", ":", "\u2192", "->", "=>"))
_OPEN, _CLOSE = frozenset(("(", "\uff08")), frozenset((")", "\uff09"))
#: the force of a segment's cues, strongest first
_FORCE_ORDER = (BAN, ASK, AVOID, ONLY, REQUIRE)
#: actions the ordering words gate ("提交之前", "プッシュする前に")
_GATED = {"commit": "commit", "push": "push", "merge": "merge", "open": "pr"}
#: git actions whose object must be a path, a secret or a branch (anything else: no check)
_GIT_ACTIONS = frozenset(("commit", "push", "merge", "rebase"))
#: actions on files: a command named beside them is how it is done ("`rm` などのファイル削除")
_FILE_ACTIONS = frozenset(("edit", "delete", "create", "read", "update"))
#: verbs that run a program (a program named in a description without one of them is not banned)
_RUN_ACTIONS = frozenset(("run", "use", "install"))
#: verbs that do something to a branch itself (make, delete, switch to, rename it)
_BRANCH_VERBS = frozenset(("create", "delete", "switch", "rename"))
#: particles that mark an object ("差分を確認": the diff is what is checked)
_OBJECT_PARTICLES = frozenset(("を", "을", "를", "把"))
#: particles that mark a topic ("`x` は確認してから実行": `x` is what waits)
_TOPIC_PARTICLES = frozenset(("は", "은", "는"))


@dataclass
class _Unit:
    #: a table of lexicon/cjk.py (cue, condition, action, noun, place, substitution, ordering) or
    #: what the text is: code | command | program | path | word | quote | open | close | stop, or
    #: `text`: CJK words no table knows (more than particles), which make a segment a description
    kind: str
    text: str
    meaning: str = ""
    weak: bool = False
    start: int = 0
    #: unknown text stands between this unit and the one before it
    gap: bool = False
    #: the particle right before it ("差分を確認": を marks what is checked)
    particle: str = ""


# --- scanning ----------------------------------------------------------------------------------


def language(tokens: list[Token]) -> str:
    """ja (kana), ko (hangul), or han: Chinese, or Japanese written in kanji only."""
    text = "".join(t.text for t in tokens if t.kind == CJK)
    if any(0x3040 <= ord(c) <= 0x30FF for c in text):
        return "ja"
    if any(0xAC00 <= ord(c) <= 0xD7AF or 0x1100 <= ord(c) <= 0x11FF for c in text):
        return "ko"
    return "han"


def _has_kana(word: str) -> bool:
    return any(0x3040 <= ord(c) <= 0x30FF for c in word)


@lru_cache(maxsize=None)
def _index(lang: str) -> dict[str, list[tuple[str, str, _lex.Entry]]]:
    """First character -> [(word without spaces, table, entry)], longest first, for one language
    ("han" reads Chinese and the kanji-only words of Japanese)."""
    out: dict[str, list[tuple[str, str, _lex.Entry]]] = {}
    seen: set[str] = set()
    for table, entries in _lex.TABLES:
        for entry in entries:
            if not (entry.lang in (lang, "cjk") or (lang == "han" and (entry.lang == "zh" or entry.lang == "ja"))):
                continue
            for word in entry.words:
                key = word.replace(" ", "").lower()
                if not key or key.isascii() or key in seen or (lang == "han" and entry.lang == "ja" and _has_kana(key)):
                    continue
                seen.add(key)
                out.setdefault(key[0], []).append((key, table, entry))
    for candidates in out.values():
        candidates.sort(key=lambda c: -len(c[0]))
    return out


@lru_cache(maxsize=None)
def _ascii_index() -> dict[str, list[tuple[tuple[str, ...], str, _lex.Entry]]]:
    """Words written in Latin letters inside CJK text ("PR 作成", "push しない", "main"): first word ->
    [(words, table, entry)], longest first."""
    out: dict[str, list[tuple[tuple[str, ...], str, _lex.Entry]]] = {}
    for table, entries in _lex.TABLES:
        for entry in entries:
            for word in entry.words:
                if word.isascii() and word.strip() and any(c.isalpha() for c in word):
                    words = tuple(word.lower().split())
                    out.setdefault(words[0], []).append((words, table, entry))
    for candidates in out.values():
        candidates.sort(key=lambda c: -len(c[0]))
    return out


def scan(tokens: list[Token], lang: str) -> list[_Unit]:
    """The units of a clause, in order."""
    units: list[_Unit] = []
    index = _index(lang)
    k = 0
    n = len(tokens)
    while k < n:
        tok = tokens[k]
        if tok.kind == CJK:
            # a run of CJK tokens (Korean puts spaces between words): scanned as one text
            chars: list[tuple[str, int]] = []
            while k < n and tokens[k].kind == CJK:
                chars += [(c, tokens[k].start + m) for m, c in enumerate(tokens[k].text)]
                k += 1
            _scan_run(chars, index, units)
            continue
        if tok.kind == CODE:
            units.append(_Unit("code", tok.text, start=tok.start))
        elif tok.kind == QUOTE:
            units.append(_Unit("quote", tok.low, start=tok.start))
        elif tok.kind == WORD:
            k = _scan_words(tokens, k, units)
            continue
        elif tok.kind == SYMBOL and tok.text in _cue_symbols():
            entry = _cue_symbols()[tok.text]
            units.append(_Unit("cue", tok.text, entry.meaning, start=tok.start))
        elif tok.kind == PUNCT and tok.text in _OPEN:
            units.append(_Unit("open", tok.text, start=tok.start))
        elif tok.kind == PUNCT and tok.text in _CLOSE:
            units.append(_Unit("close", tok.text, start=tok.start))
        elif tok.kind in (PUNCT, SYMBOL) and tok.text in _BOUNDARIES:
            units.append(_Unit("stop", tok.text, start=tok.start))
        k += 1
    return units


@lru_cache(maxsize=None)
def _cue_symbols() -> dict[str, _lex.Entry]:
    return {word: entry for entry in _lex.CUES if entry.lang == "cjk" for word in entry.words}


def _scan_run(chars: list[tuple[str, int]], index: dict[str, list[tuple[str, str, _lex.Entry]]], units: list[_Unit]) -> None:
    text = "".join(c for c, _ in chars)
    i = 0
    gap = False
    unknown: list[tuple[str, int]] = []  # the words no table knows since the last unit
    particle = ""
    while i < len(text):
        found = next(((word, table, entry) for word, table, entry in index.get(text[i], ()) if text.startswith(word, i)), None)
        if found is None or found[1] == "particle":
            if found is None:
                unknown.append(chars[i])
                particle = ""
            else:
                _flush_text(unknown, units)
                particle = found[0]
            i += len(found[0]) if found else 1
            gap = True
            continue
        _flush_text(unknown, units)
        word, table, entry = found
        if table != "neutral":
            units.append(_Unit(table, word, entry.meaning, entry.weak, chars[i][1], gap, particle))
        gap, particle = False, ""
        i += len(word)
    _flush_text(unknown, units)


def _flush_text(unknown: list[tuple[str, int]], units: list[_Unit]) -> None:
    if unknown:
        units.append(_Unit("text", "".join(c for c, _ in unknown), start=unknown[0][1], gap=True))
        unknown.clear()


def _scan_words(tokens: list[Token], k: int, units: list[_Unit]) -> int:
    """Latin-letter words at `k`: a command written without backticks, a table word, a program, a path."""
    tok = tokens[k]
    low = tok.low
    if low in KNOWN_PROGRAMS and tok.text[:1].islower():
        words = [low]
        m = k + 1
        while m < len(tokens) and tokens[m].kind == WORD and len(words) < 5 and (
                tokens[m].text.startswith("-") or (tokens[m].low.replace("-", "").isalnum() and tokens[m].text[:1].islower()
                                                    and tokens[m].low not in KNOWN_PROGRAMS)):
            words.append(tokens[m].low if not tokens[m].text.startswith("-") else tokens[m].text)
            m += 1
        if len(words) > 1:
            units.append(_Unit("command", " ".join(words), start=tok.start))
            return m
    for phrase, table, entry in _ascii_index().get(low, ()):
        if all(k + w < len(tokens) and tokens[k + w].kind == WORD and tokens[k + w].low == phrase[w] for w in range(len(phrase))):
            units.append(_Unit(table, " ".join(phrase), entry.meaning, entry.weak, tok.start))
            return k + len(phrase)
    if low in KNOWN_PROGRAMS:
        units.append(_Unit("program", low, start=tok.start))
    elif pathlike(tok.text):
        units.append(_Unit("path", tok.text, start=tok.start))
    else:
        units.append(_Unit("word", tok.text, start=tok.start))
    return k + 1


# --- segments ----------------------------------------------------------------------------------


@dataclass
class _Segment:
    units: list[_Unit]
    paren: bool = False
    #: it starts right after a closing parenthesis: the sentence before the parenthesis goes on
    resumes: bool = False

    def has(self, kind: str, *meanings: str) -> bool:
        return any(u.kind == kind and (not meanings or u.meaning in meanings) for u in self.units)

    @property
    def cued(self) -> bool:
        return any(u.kind == "cue" and u.meaning != "never" for u in self.units) or self.has("substitution")

    @property
    def verbal(self) -> bool:
        return self.has("action") or self.has("noun", *_lex.NOUN_ACTIONS) or self.has("place", "and")

    @property
    def named(self) -> bool:
        return any(u.kind in ("code", "command", "program", "path") or (u.kind == "noun" and u.meaning not in ("verify",))
                   for u in self.units)


def _segments(units: list[_Unit]) -> list[_Segment]:
    out: list[_Segment] = []
    current: list[_Unit] = []
    depth = 0
    resumes = False
    for unit in units:
        if unit.kind in ("stop", "open", "close"):
            if current:
                out.append(_Segment(current, depth > 0, resumes))
            current = []
            depth = depth + 1 if unit.kind == "open" else max(0, depth - 1) if unit.kind == "close" else depth
            resumes = unit.kind == "close" and not depth
            continue
        current.append(unit)
    if current:
        out.append(_Segment(current, depth > 0, resumes))
    return out


def _glossed(segments: list[_Segment]) -> list[_Segment]:
    """"マイグレーションファイル（`prisma/migrations/`）", "문서 파일(`docs/`)": a parenthesis without a
    cue or a verb glosses the words before it, stands where they stand, and the sentence goes on
    after it."""
    out: list[_Segment] = []
    glossed = False
    for seg in segments:
        if seg.paren and not seg.cued and not seg.verbal and out and not out[-1].paren and not _ends_with_cue(out[-1]):
            out[-1] = _Segment(out[-1].units + seg.units, False)
            glossed = True
        elif glossed and seg.resumes and not seg.paren:
            # "向 `upstream`（Acme/widgets）push 任何内容": the sentence goes on after the gloss
            out[-1] = _Segment(out[-1].units + seg.units, False)
            glossed = False
        else:
            out.append(seg)
            glossed = False
    return out


def _ends_with_cue(seg: _Segment) -> bool:
    """"履歴は書かない（`git log` の役割）": a parenthesis after the cue is a remark on the sentence,
    not a gloss of its words."""
    words = [u for u in seg.units if u.kind != "text"]
    return bool(words) and words[-1].kind == "cue"


def _groups(segments: list[_Segment], lang: str) -> list[_Segment]:
    """Segments with enumerations joined to the segment whose cue governs them."""
    right_first = lang in ("ja", "ko")
    segments = _glossed(segments)
    target: dict[int, int] = {}
    for k, seg in enumerate(segments):
        if seg.cued or seg.verbal or not seg.named:
            continue
        sides = (1, -1) if right_first else (-1, 1)
        for step in sides:
            m = k + step
            while 0 <= m < len(segments) and not segments[m].cued and not segments[m].verbal and segments[m].paren == seg.paren:
                m += step
            if 0 <= m < len(segments) and segments[m].cued and segments[m].paren == seg.paren:
                target[k] = m
                break
    # "編集したり、削除したりしない": verbs listed with たり share the cue after them
    for k, seg in enumerate(segments):
        words = [u for u in seg.units if u.kind != "text"]
        if not seg.cued and words and words[-1].kind == "place" and words[-1].meaning == "and":
            m = k + 1
            while m < len(segments) and not segments[m].cued:
                m += 1
            if m < len(segments):
                target[k] = m
    merged: dict[int, list[_Unit]] = {}
    for k, seg in enumerate(segments):
        home = k
        while home in target:
            home = target[home]
        merged.setdefault(home, [])
    for k, seg in enumerate(segments):
        home = k
        while home in target:
            home = target[home]
        merged[home] += seg.units
    return [_Segment(sorted(merged[k], key=lambda u: u.start), segments[k].paren) for k in sorted(merged)]


# --- reading -----------------------------------------------------------------------------------


def read_cjk(tokens: list[Token], ctx: Context) -> list[Frame]:
    """The frames of a Chinese, Japanese or Korean clause."""
    lang = language(tokens)
    scanned = _illustrations(scan(tokens, lang))
    units = [u for u in scanned if u.kind != "text"]
    text = join(tokens).strip()
    start = tokens[0].start if tokens else 0
    note = f"{'zh/ja' if lang == 'han' else lang} clause"
    first = next((u for u in units if u.kind not in ("stop", "open", "close")), None)
    if first is not None and first.kind == "place" and first.meaning == "examples":
        return [Frame("", start=start, text=text, notes=[f"{note}: an example ('{first.text}'), never a rule"])]
    condition = _condition(units)
    intro = bool(tokens) and tokens[-1].kind == PUNCT and tokens[-1].text in COLONS
    frames = _ordering(units, ctx, condition, intro)
    if frames is None:
        frames = []
        never = any(u.kind == "cue" and u.meaning == "never" for u in units)
        allowed_here = any(u.kind == "cue" and u.meaning == "allow" for u in units)
        segments = _groups(_segments(_situational(scanned)), lang)
        substituted = _substitutions(segments)
        for k, seg in enumerate(segments):
            found = [substituted[k]] if k in substituted else _segment_frames(seg, ctx, never, allowed_here, lang in ("ja", "ko"))
            _instead(frames, found)
            frames += found
    case = next((u.text for u in units if u.kind == "condition" and u.meaning in ("case", "case-open")), "")
    if case and any(f.inherited for f in frames):
        # "`gh` の認証エラーなら作業を止める" under 禁止事項: a case and what to do then, no rule of its own
        frames = [f for f in frames if not f.inherited] or [Frame("", notes=[f"'{case}' states a situation, no rule word of its own"])]
    for frame in frames:
        if condition is not None and frame.modality and not frame.condition and frame.ordering is None:
            frame.condition, frame.condition_text = condition
        if frame.modality == ONLY and frame.condition == "permission":
            frame.modality = BAN
        if intro and frame.modality in (BAN, AVOID, ASK, ONLY) and not frame.objects and not frame.targets:
            frame.requirement = "list"
            frame.notes.append("it introduces the list below: the items are its objects")
        frame.start, frame.text = start, text
        force = f"force '{frame.cue or 'none'}'{' (inherited)' if frame.inherited else ''}, verbs {', '.join(frame.actions) or 'none'}"
        frame.notes.insert(0, f"{note}: " + ("ordering" if frame.ordering is not None else force))
    if not frames and units:
        frames.append(Frame("", start=start, text=text, notes=[f"{note}: no cue, verb or object a check can be made of"]))
    return frames


def _condition(units: list[_Unit]) -> tuple[str, str] | None:
    found = [u for u in units if u.kind == "condition"]
    for kind in ("permission", "only-permission", "judgment", "case", "case-open", "unchecked"):
        for unit in found:
            if unit.meaning == kind:
                # a case ("テストが失敗したら") narrows a ban to a moment the agent judges (warn)
                return {"only-permission": "permission", "case": "judgment", "case-open": "judgment"}.get(kind, kind), unit.text
    return None


def _force(units: list[_Unit], ctx: Context, never: bool) -> tuple[str, str]:
    """The strongest cue of a segment: (modality, words), or ("", "")."""
    cues = [u for u in units if u.kind == "cue" and u.meaning in _FORCE_ORDER]
    if not cues and any(u.kind == "condition" and u.meaning == "only-permission" for u in units):
        # "依頼時のみ", "요청할 때만": only when asked
        return ONLY, next(u.text for u in units if u.kind == "condition" and u.meaning == "only-permission")
    rule_place = ctx.item or bool(ctx.modality) or never
    if any(u.text not in _cue_symbols() and (not u.weak or rule_place) for u in cues):
        # "❌ Push 必须用户授权", "❌ 避免 `x`": the mark says a rule follows, its words say which
        cues = [u for u in cues if u.text not in _cue_symbols()]
    for modality in _FORCE_ORDER:
        for unit in cues:
            if unit.meaning == modality and (not unit.weak or rule_place):
                return modality, unit.text
    return "", ""


def _segment_frames(seg: _Segment, ctx: Context, never: bool, allowed_here: bool, head_final: bool) -> list[Frame]:
    units = seg.units
    modality, cue = _force(units, ctx, never)
    inherited = False
    allowed = next((u.text for u in units if u.kind == "cue" and u.meaning == "allow"), "")
    last = next((u for u in reversed(units) if u.kind == "cue" and u.meaning != "never"), None)
    if allowed and (modality not in (BAN, AVOID, ASK) or (head_final and last is not None and last.meaning == "allow")):
        # "Claude APIを使わないものは手動確認してよい": the predicate at the end says what is allowed
        return [Frame("", "allow", notes=[f"'{allowed}': allowed, never banned"])]
    if not modality and not allowed_here and not any(u.kind == "cue" for u in units) and ctx.modality in (BAN, AVOID, ASK, ONLY):
        modality, cue, inherited = ctx.modality, ctx.cue, True
    frames = _fill(units, ctx, lambda: Frame(modality, cue, inherited=inherited))
    out = []
    for frame in frames:
        if not frame.actions and not frame.objects and not frame.targets and not modality:
            continue
        if not modality:
            frame.notes.append("no cue: what it names is what the text says to use")
        out.append(frame)
    return out


def _fill(units: list[_Unit], ctx: Context, new: Callable[[], Frame]) -> list[Frame]:
    """The verbs, objects and target branches of a segment, as frames: one for new branches, one
    for commands named beside a verb about files ("`rm` などのファイル削除"), one for the rest."""
    described = any(u.kind == "text" for u in units)
    units = [u for u in units if u.kind != "text"]
    frame = new()
    actions: list[str] = []
    objects: list[Obj] = []
    targets: list[str] = []
    unresolved: list[str] = []
    nouns = [u for u in units if u.kind == "noun"]
    has_branch = any(u.meaning == "thing:branch" for u in nouns)
    following = any(u.kind == "place" and u.meaning == "following" and not _after_path(units, k) for k, u in enumerate(units))
    examples = False
    for k, unit in enumerate(units):
        after = units[k + 1] if k + 1 < len(units) else None
        if unit.kind == "place" and unit.meaning == "examples":
            examples = True
            frame.notes.append(f"'{unit.text}': what follows illustrates, it is never banned")
            continue
        if examples:
            continue
        if unit.kind == "action" and unit.meaning not in actions:
            actions.append(unit.meaning)
        elif unit.kind in ("code", "command", "path"):
            if unit.text.lower() in ("main", "master", "develop", "trunk") and (has_branch or unit.kind == "code"):
                targets.append(unit.text.lower())
                continue
            role, file_noun = _role(units, k)
            objects.append(Obj("code" if unit.kind != "path" else "path", unit.text, role, after_file_noun=file_noun))
        elif unit.kind == "program":
            own = _tool_credential(unit.text) if after is not None and after.meaning == "credential" else None
            if own is not None:
                # "npm 凭证", "npm のトークン": that tool's credentials (its files and variables)
                objects.append(Obj("noun", f"{unit.text} {after.text}" if after else unit.text, meaning={"credential": own}))
                continue
            objects.append(Obj("program", unit.text, "like" if after is not None and after.meaning == "like" else ""))
        elif unit.kind == "noun":
            before = units[k - 1] if k > 0 else None
            if unit.meaning == "credential" and before is not None and before.kind == "program" and _tool_credential(before.text):
                continue  # read with the program before it
            obj = _noun(unit)
            if obj is not None and "path" in obj.meaning and after is not None and after.kind in ("code", "path"):
                continue  # "マイグレーションファイル（`prisma/migrations/`）": the paths glossing it win over the kind's globs
            if obj is not None:
                objects.append(obj)
            elif unit.meaning == "branch-name":
                targets.append(unit.text.lower())
        elif unit.kind == "word" or (unit.kind == "place" and unit.meaning == "file" and not _after_path(units, k)):
            unresolved.append(unit.text)
        elif unit.kind == "quote":
            objects.append(Obj("quote", unit.text))
    out: list[Frame] = []
    branches = [o for o in objects if o.meaning.get("thing") == "branch"]
    if branches and set(actions) & _GIT_ACTIONS:
        if set(actions) & _BRANCH_VERBS:
            # "브랜치 생성이나 커밋": making branches, and committing
            made = new()
            made.actions, made.objects = [a for a in actions if a in _BRANCH_VERBS], branches
            out.append(made)
            actions = [a for a in actions if a not in _BRANCH_VERBS]
        # "mainブランチには直接コミットしない": the branch is where it goes, not what is made
        objects = [o for o in objects if o not in branches]
    for unit in nouns:
        implied = _lex.NOUN_ACTIONS.get(unit.meaning)
        if implied == "open" and "merge" not in actions:
            # "PR 作成", "提 PR", "PRを投げる": opening a pull request
            actions = [a for a in actions if a not in ("create", "open")] + ["open"]
        elif implied and not actions:
            actions.append(implied)
    if not actions and frame.inherited and ctx.actions:
        actions = [a for a in ctx.actions if a != "bare"]
    if not actions and any(u.kind == "cue" and u.text.replace(" ", "") in _READ_ONLY for u in units):
        actions = ["edit"]  # "`vendor/` は読み取り専用": not to be edited
    if described:
        objects = _named_in_passing(frame, actions, objects)
    if any(a in _FILE_ACTIONS for a in actions):
        commands = [o for o in objects if o.kind == "code" and _command_like(o)]
        if commands:
            # "`git rm`や`rm`などのファイル削除は禁止": the commands that do it
            run = new()
            run.actions, run.objects = ["run"], commands
            run.notes.append(f"{', '.join(o.text for o in commands)}: commands named for what they do")
            out.append(run)
            objects = [o for o in objects if o not in commands]
    git = [a for a in actions if a in _GIT_ACTIONS]
    if git and unresolved and not following and not targets and not any(
            o.kind in ("code", "path") or "credential" in o.meaning for o in objects):
        # "社外秘のファイルは公開リポジトリへ push しない": what is pushed is not a path or a branch
        frame.notes.append(f"{', '.join(git)} of something no check can name ({', '.join(unresolved[:3])}): no check")
        actions = [a for a in actions if a not in _GIT_ACTIONS]
    frame.actions, frame.objects, frame.targets = actions, objects, list(dict.fromkeys(targets))
    if "push" in actions:
        frame.remotes = named_remotes(objects)
    frame.verb = ", ".join(u.text for u in units if u.kind == "action")
    if frame.actions or frame.objects or frame.targets or not out:
        out.append(frame)
    return out


def _named_in_passing(frame: Frame, actions: list[str], objects: list[Obj]) -> list[Obj]:
    """A segment with words no table knows names things in passing unless a verb acts on them:
    "Git 操作中のエディタ待ち", "`gh` の認証エラーなら" (a program not run), "`TASKS.md` の台帳化"
    (a path and no verb the tables know)."""
    if not set(actions) & _RUN_ACTIONS:
        programs = [o for o in objects if o.kind == "program" or (o.kind == "code" and o.text.strip().lower() in KNOWN_PROGRAMS)]
        if programs:
            frame.notes.append(f"{', '.join(o.text for o in programs)}: a program named without a verb that runs it is not banned")
            objects = [o for o in objects if o not in programs]
    if not actions:
        paths = [o for o in objects if o.kind in ("code", "path") and pathlike(o.text)]
        if paths:
            frame.notes.append(f"{', '.join(o.text for o in paths)}: a path with words that name no action the tables know")
            objects = [o for o in objects if o not in paths]
    return objects


#: units that name something (what a case or a missing thing is about, not what the rule bans)
_NAMING = frozenset(("code", "command", "program", "path", "noun", "action", "word", "quote"))


def _situational(units: list[_Unit]) -> list[_Unit]:
    """What a case or a missing thing names is not what the rule is about: "テストが失敗したら
    コミットしない" (the tests are the case's), "Issue 未起票のコミット" (the issue is what is missing)."""
    out = list(units)
    for k, unit in enumerate(units):
        if unit.kind == "condition" and unit.meaning == "case-open":
            # "如果测试失败，": the words up to the comma are the case's
            m = k + 1
            while m < len(out) and out[m].kind not in ("stop", "open", "close", "cue"):
                if out[m].kind in _NAMING:
                    out[m] = _Unit("text", out[m].text, start=out[m].start, gap=True)
                m += 1
            continue
        if unit.kind != "condition" or unit.meaning not in ("case", "unchecked"):
            continue
        m = k - 1
        while m >= 0 and out[m].kind not in ("stop", "open", "close", "cue") and (unit.meaning == "case" or out[m].kind in _NAMING):
            if out[m].kind in _NAMING:
                out[m] = _Unit("text", out[m].text, start=out[m].start, gap=True)
            if unit.meaning == "unchecked":
                break  # only the word right before "未起票", "なしの"
            m -= 1
    return out


def _illustrations(units: list[_Unit]) -> list[_Unit]:
    """Code and programs inside parentheses that end with 等/など ("Git 操作（`git commit`, `git merge`
    等）") illustrate the words before them: never banned themselves."""
    out: list[_Unit] = []
    inside: list[_Unit] = []
    depth = 0
    for unit in units:
        if unit.kind == "open":
            depth += 1
        elif unit.kind == "close" and depth:
            depth -= 1
            if not depth:
                if any(u.kind == "place" and u.meaning == "like" for u in inside):
                    inside = [_Unit("text", u.text, start=u.start, gap=True) if u.kind in ("code", "command", "program") else u
                              for u in inside]
                out += inside
                inside = []
        (inside if depth and not (unit.kind == "open" and depth == 1) else out).append(unit)
    return out + inside


def _instead(before: list[Frame], found: list[Frame]) -> None:
    """"不要使用 `npm`，请使用 `pnpm`": a clause that says what to use after a ban names the ban's
    alternative; it bans nothing itself."""
    banned = [f for f in before if f.modality in (BAN, AVOID) and f.objects and not f.alternatives]
    use = [f for f in found if f.modality in (REQUIRE, "") and "use" in f.actions and f.objects]
    if banned and use:
        banned[-1].alternatives = [o for f in use for o in f.objects]
        banned[-1].notes.append(f"what to use instead: {', '.join(o.text for o in banned[-1].alternatives)}")
        for frame in use:
            found.remove(frame)


def _command_like(obj: Obj) -> bool:
    first = obj.text.split()[0] if obj.text.split() else ""
    return not pathlike(obj.text) and (first in KNOWN_PROGRAMS or obj.role == "like")


def _after_path(units: list[_Unit], k: int) -> bool:
    m = k - 1
    while m >= 0 and units[m].kind == "place":
        m -= 1
    return m >= 0 and units[m].kind in ("code", "path")


def _role(units: list[_Unit], k: int) -> tuple[str, bool]:
    """What the words right after a path make of it: a directory (`x` 配下, `x` 下的文件), one of a
    kind (`rm` など), a file (`x` ファイル)."""
    role, file_noun = "", False
    m = k + 1
    while m < len(units) and units[m].kind == "place" and not units[m].gap:
        meaning = units[m].meaning
        if meaning == "dir" or (meaning == "following" and units[m].text.startswith("以下")):
            role, file_noun = "dir", True  # "`x` 目录", "`x` 配下": the directory and what is in it
        elif meaning == "like":
            role = role or "like"
        m += 1
    return role, file_noun


def _noun(unit: _Unit) -> Obj | None:
    meaning = unit.meaning
    if meaning == "category:pull-request":
        # "PR 作成" opens one (the pull-request category); "PR をクローズ", "PR にコメント" are its commands
        return Obj("noun", unit.text, meaning={"category": "pull-request", "thing": "pull-request"})
    if meaning.startswith("category:"):
        return Obj("noun", unit.text, meaning={"category": meaning.split(":", 1)[1]})
    if meaning.startswith("thing:"):
        return Obj("noun", unit.text, meaning={"thing": meaning.split(":", 1)[1]})
    if meaning == "credential":
        return Obj("noun", unit.text, meaning={"credential": _secret_meaning()})
    if meaning == "self":
        return Obj("noun", unit.text, meaning={"self": True})
    if meaning == "hooks":
        return Obj("noun", unit.text, meaning={"hooks": True})
    if meaning.startswith("path:"):
        # "自動生成されたファイル": the kind of file of lexicon/nouns.PATH_NOUNS the English words name
        noun = _path_noun(meaning.split(":", 1)[1])
        return Obj("noun", unit.text, meaning={"path": noun.globs, "conventional": noun.conventional} if noun.conventional
                   else {"path": noun.globs})
    return None


#: the words of "read-only" (lexicon/cjk.py), as the reader writes them (without spaces)
_READ_ONLY = frozenset(w.replace(" ", "") for w in next(e for e in _lex.CUES if e.name == "read-only").words)


@lru_cache(maxsize=None)
def _path_noun(words: str) -> _nouns.PathNoun:
    return next(noun for noun in _nouns.PATH_NOUNS if words in noun.words)


def _tool_credential(program: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """The credentials of one tool ("npm credentials": ~/.npmrc, NPM_TOKEN), when the tables know them."""
    for credential in _nouns.CREDENTIALS:
        if any(w.split()[0] == program.lower() and len(w.split()) > 1 for w in credential.words):
            return credential.files, credential.variables
    return None


@lru_cache(maxsize=None)
def _secret_meaning() -> tuple[tuple[str, ...], tuple[str, ...]]:
    for credential in _nouns.CREDENTIALS:
        if "secrets" in credential.words:
            return credential.files, credential.variables
    return (), ()


# --- substitutions -----------------------------------------------------------------------------


def _substitutions(segments: list[_Segment]) -> dict[int, Frame]:
    """"X ではなく Y", "X 대신 Y", "用 Y 代替 X", "Y 而不是 X": a warning about the banned side whose
    reason names the other; a side left empty in the segment is the neighbouring one."""
    out: dict[int, Frame] = {}
    for k, seg in enumerate(segments):
        marks = [m for m, u in enumerate(seg.units) if u.kind == "substitution"]
        if not marks:
            continue
        m = marks[0]
        left, right = seg.units[:m], seg.units[m + 1:]
        if not _runnable(left) and k > 0 and not segments[k - 1].cued:
            left = segments[k - 1].units + left
        if not _runnable(right) and k + 1 < len(segments) and not segments[k + 1].cued:
            right = right + segments[k + 1].units
            out[k + 1] = _positive(segments[k + 1].units)
        side = seg.units[m].meaning
        banned, wanted = (left, right) if side == "left" else (right, left)
        banned_objects = _runnable(banned)
        wanted_objects = _runnable(wanted)
        if not banned_objects or not wanted_objects:
            continue
        strong = any(u.kind == "cue" and u.meaning == BAN and not u.weak for u in banned)
        frame = Frame(BAN if strong else AVOID, seg.units[m].text, actions=["use"], objects=banned_objects,
                      alternatives=wanted_objects,
                      notes=[f"substitution '{seg.units[m].text}': {', '.join(o.text for o in banned_objects)} instead of "
                             f"{', '.join(o.text for o in wanted_objects)}"])
        out[k] = frame
    return out


def _runnable(units: list[_Unit]) -> list[Obj]:
    """Commands and programs a substitution side names."""
    out: list[Obj] = []
    for unit in units:
        if unit.kind in ("code", "command"):
            out.append(Obj("code", unit.text))
        elif unit.kind == "program":
            out.append(Obj("program", unit.text))
    return out


def _positive(units: list[_Unit]) -> Frame:
    frame = Frame("", notes=["what the substitution says to use"])
    frame.objects = _runnable(units)
    return frame


# --- orderings ---------------------------------------------------------------------------------


def _ordering(units: list[_Unit], ctx: Context, condition: tuple[str, str] | None, intro: bool) -> list[Frame] | None:
    """"提交之前必须运行 `x`", "`x` を実行してからコミット", "커밋 전에 `x`", "테스트 없이 푸시 금지": a
    sequence; "pushする前に確認を求める": a question before the action. None: no ordering here."""
    for k, unit in enumerate(units):
        kind = unit.meaning
        if unit.kind == "condition" and kind == "unchecked":
            kind = "after"  # "X なしで Y しない": Y waits for X, when X is something to run
        elif unit.kind != "ordering":
            continue
        if kind.endswith("-action"):
            if k == 0 or unit.gap or not (_is_action(units[k - 1]) or _confirmed(units, k)):
                continue
            kind = kind[: -len("-action")]
        before, after = units[:k], units[k + 1:]
        then_part, first_part = (before, after) if kind == "before" else (after, before)
        if kind == "after" and _confirmed(units, k):
            # "确认后再执行 `pnpm publish`", "デプロイは確認してから実行する": once the user has confirmed
            rest = [u for m, u in enumerate(units) if m not in (k - 1, k)]
            for part in _fill(rest, ctx, lambda: Frame(ASK, units[k - 1].text + unit.text)):
                if part.actions or part.objects:
                    part.condition, part.condition_text = "permission", units[k - 1].text + unit.text
                    part.notes.append(f"'{units[k - 1].text}{unit.text}' with nothing named to check: after the user confirms")
                    return [part]
            continue
        asked, question = _force(first_part, ctx, True)
        if kind == "before" and asked == ASK:
            # "pushする前に確認を求める", "`terraform apply` の前にユーザーに確認": ask before it
            for part in _fill(then_part, ctx, lambda: Frame(ASK, question)):
                if part.actions or part.objects:
                    part.condition, part.condition_text = "permission", question
                    part.notes.append(f"asking the user ('{question}') before it ('{unit.text}')")
                    return [part]
            continue
        then = _gated(then_part, nearest_last=kind == "before")
        if then is None and kind == "before":
            gated = _gated(after, nearest_last=False)
            if gated is not None and _force(after, ctx, True)[0] == BAN:
                # "テスト前にコミットしないでください": what comes before the word must run first
                first = _firsts(before)
                if not first:
                    return [Frame("", notes=[f"a ban limited to a moment ('{unit.text}'): no check"])]
                return [Frame(REQUIRE, ordering=Ordering(first, gated),
                              notes=[f"ordering ('{unit.text}'): {', '.join(o.text for o in first)} before {gated}"])]
        if then is None:
            continue
        first = _firsts(first_part)
        if not first and intro:
            # "每次 GitHub 操作前先切换账户：" over a code block: the block's commands come first
            first = [o for o in ctx.following if o.role == "block"]
        if not first:
            continue
        modality, cue = _force(units, ctx, True)
        target = next((u.text.lower() for u in then_part if u.meaning == "branch-name" or (
            u.kind == "code" and u.text.lower() in ("main", "master"))), "")
        soft = modality not in (BAN, REQUIRE, ONLY) or (condition is not None and condition[0] != "unchecked")
        return [Frame(REQUIRE, cue, ordering=Ordering(first, then, soft=soft, target=target),
                      notes=[f"ordering ('{unit.text}'): {', '.join(o.text for o in first)} before {then}"
                             + (" (no cue makes it required: a warning)" if soft else "")])]
    return None


def _confirmed(units: list[_Unit], k: int) -> bool:
    """確認/确认/확인 right before an after-word, with nothing named as what is checked (no object
    particle を/을/를, no command or task before it, not part of a compound such as 動作確認)."""
    if k == 0 or units[k].gap:
        return False
    verify = units[k - 1]
    if verify.kind != "noun" or verify.meaning != "verify" or verify.particle in _OBJECT_PARTICLES:
        return False
    if not verify.particle and (verify.gap or (k >= 2 and units[k - 2].kind == "noun")):
        return False  # "動作確認後", "テスト確認後": a compound that names what is checked
    if verify.particle in _TOPIC_PARTICLES:
        return True  # "`terraform apply` は確認してから": what comes before is what is done
    return not _firsts(units[: k - 1]) and not any(u.kind == "noun" and u.meaning == "changes" for u in units[:k])


def _is_action(unit: _Unit) -> bool:
    return unit.kind == "action" or (unit.kind == "noun" and unit.meaning in _lex.NOUN_ACTIONS) or unit.kind in ("code", "command")


def _gated(units: list[_Unit], *, nearest_last: bool) -> str | None:
    """The action an ordering gates: a git action (commit, push, merge, a PR) or a command."""
    found: list[str] = []
    for unit in units:
        if unit.kind == "action" and unit.meaning in _GATED:
            found.append(_GATED[unit.meaning])
        elif unit.kind == "noun" and unit.meaning == "category:pull-request":
            found.append("pr")
        elif unit.kind == "noun" and unit.meaning.startswith("gated:"):
            found.append(unit.meaning.split(":", 1)[1])  # "GitHub 操作", "リモート操作"
        elif unit.kind in ("code", "command") and unit.text.split()[:1] in (["git"], ["gh"]):
            found.append("`" + unit.text)
    if not found:
        return None
    return found[-1] if nearest_last else found[0]


def _firsts(units: list[_Unit]) -> list[Obj]:
    """What must run first: commands, tasks (テスト, 构建, 린트), or reviewing the changes."""
    out: list[Obj] = []
    for unit in units:
        if unit.kind in ("code", "command"):
            out.append(Obj("code", unit.text))
    if out:
        return out
    for unit in units:
        if unit.kind == "noun" and unit.meaning.startswith("category:") and unit.meaning not in _lex.NOUN_ACTIONS:
            out.append(Obj("noun", unit.text, meaning={"category": unit.meaning.split(":", 1)[1]}))
    if out:
        return out
    if any(u.meaning == "verify" for u in units) and any(u.meaning == "changes" for u in units):
        return [Obj("noun", "review changes", meaning={"category": "review-changes"})]
    return []


# --- headings ----------------------------------------------------------------------------------


def heading_force(tokens: list[Token]) -> tuple[str, str] | None:
    """The force a CJK heading gives its section ("## 禁止事項"; "## 允许的操作" says its items are allowed)."""
    text = "".join(t.text.lower() for t in tokens if t.kind in (CJK, WORD))
    best: tuple[int, str, str] | None = None
    for entry in _lex.HEADINGS:
        for word in entry.words:
            key = word.replace(" ", "")
            if key in text and (best is None or len(key) > best[0]):
                best = (len(key), entry.meaning, word)
    return (best[1], best[2]) if best else None


__all__ = ["heading_force", "language", "read_cjk", "scan"]
