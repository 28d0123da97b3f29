"""From markdown blocks to rules: the structure walk of the extractor.

For every block that can state a rule (a bullet or numbered item, a paragraph, a table row, a
quote, an HTML comment) the walk works out what the block inherits from where it stands:

- the force of the heading above it ("## NEVER", "### What to AVOID", "## 禁止事項"), or an
  ordering it states ("## Before every push");
- the sentence that introduces its list ("Never manually edit auto-generated files:",
  "IMMEDIATELY STOP and ask user when:"): its force, verb and condition apply to items that
  carry no cue of their own, and its pronouns ("them", "either of the following") are the items;
- the label of its item ("`plugins/` — Generated copies ...": "here" is `plugins/`);
- the objects of the sentences before it ("install these tools" after "(pip, python, spin)").

Each sentence is cut into clauses and read into frames (guidance.policy.frames); each frame is
resolved into checks (guidance.policy.resolve). The document's own commands (code blocks and
spans, with the words around them) form an inventory that tells what "build" means in it and
which instances of a banned form it prescribes.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field

from cf_guidance.policy import grammar
from cf_guidance.policy.frames import (
    ASK,
    ONLY,
    REQUIRE,
    AVOID,
    BAN,
    Context,
    Frame,
    Obj,
    Ordering,
    action_at,
    ask_after,
    does_action,
    find_cues,
    hard,
    command_family,
    family_label,
    files_title,
    heading_modality,
    label_modality,
    match,
    opens_situation,
    outside_parentheses,
    read_chain,
    read_clause,
    read_conditions,
    runner_span,
    then_at,
    heading_change,
    done_at,
    workflow_title,
    ANY_CHANGE,
)
from cf_guidance.policy.lexicon import markers as _markers
from cf_guidance.policy.lexicon.markers import WHEN_TO_RUN_TITLES
from cf_guidance.policy.lexicon.nouns import PATH_NOUNS
from cf_guidance.policy.lexicon.programs import KNOWN_PROGRAMS, WRAPPER_RUNNERS
from cf_guidance.policy.markdown import CODE_OPEN, Block
from cf_guidance.policy.resolve import Inventory, Place, Spec, cap, resolve, spec_key
from cf_guidance.policy.shapes import listed_types, surfaces_of
from cf_guidance.policy.text import (CJK, CODE, COLONS, PUNCT, QUOTE, SYMBOL, WORD, Token, clauses, join, sentences,
                                     split_at, tokenize)

_SHELL_FENCES = frozenset(("", "bash", "sh", "shell", "console", "zsh", "terminal", "shell-session", "cmd", "powershell",
                           "ps1", "fish"))
_RULE_KINDS = frozenset(("bullet", "paragraph", "row", "html"))


@dataclass
class Unit:
    """One block read for rules: its clauses' frames (with lines) and the checks they yield."""

    block: Block
    index: int
    frames: list[tuple[int, Frame]] = field(default_factory=list)
    specs: list[Spec] = field(default_factory=list)
    #: what the block inherited (for explain)
    context: list[str] = field(default_factory=list)
    #: a reading that failed (a bug): the block stays advisory and the compile reports it
    error: str = ""


@dataclass
class _Heading:
    level: int
    modality: str
    cue: str
    then: str
    soft: bool = False
    #: the heading's verbs ("## Do not edit"): what its items without a verb are about
    actions: tuple[str, ...] = ()
    verb: str = ""
    #: the heading's condition ("## Do not edit without approval", "### Prohibited (Without Approval)")
    condition: str = ""
    condition_text: str = ""
    #: the heading's block index, and whether its ordering comes from a workflow title ("## Pre-commit
    #: checklist"), whose items after the one doing the action are not steps before it
    index: int = -1
    titled: bool = False
    #: "## After every code change", "### Regenerate the clients after template changes": the
    #: ordering holds after a change of these files (`**`: any), not before every commit
    edits: tuple[str, ...] = ()
    #: the ordering comes from a sentence ending in ":" over numbered sub-headings ("Run these before
    #: committing:" then "### 1. Format" and its code block): it reaches their code blocks, not every item
    steps_only: bool = False
    #: its words ("package manager"), for a clause below that only names a tool
    title: str = ""


class BlockTokens:
    """The tokens of each block of one source, made once on first use: extraction reads blocks
    again for their neighbours, and the endorsement pass (policy/endorse.py) reads them after."""

    def __init__(self, blocks: list[Block]) -> None:
        self._blocks = blocks
        self._tokens: dict[int, list[Token]] = {}

    def __call__(self, index: int) -> list[Token]:
        found = self._tokens.get(index)
        if found is None:
            block = self._blocks[index]
            found = self._tokens[index] = tokenize(grammar.blank_tags(block.inline.masked), block.inline.codes)
        return found


def extract(source: str, blocks: list[Block], scope: str = "", tokens: BlockTokens | None = None) -> list[Unit]:
    """Every rule-bearing block of one source, read (units without checks stay advisory); `scope`
    is the directory a subdirectory's file applies to ("this directory" in it); `tokens` shares
    the blocks' tokens with a later pass."""
    tokens = tokens or BlockTokens(blocks)
    inventory = build_inventory(blocks, tokens)
    units: list[Unit] = []
    headings: list[_Heading] = []
    first_text = next((i for i, b in enumerate(blocks) if b.kind in ("paragraph", "bullet", "html")), -1)

    for index, block in enumerate(blocks):
        if block.kind == "heading":
            while headings and headings[-1].level >= block.level:
                headings.pop()
            toks = tokens(index)
            titled = files_title(toks)
            modality = heading_modality(toks) if titled is None else (titled[0], titled[1])
            if titled is None and modality is not None and _states_rule(toks, _lists_objects(blocks, index, tokens)):
                # "### Never run `npm run build`": the heading is a rule, not a force for its section
                modality = None
                unit = Unit(block, index)
                try:
                    _read_block(source, blocks, index, unit, [h for h in headings if h.level < block.level], inventory,
                                first_text, tokens, scope)
                except Exception as exc:  # noqa: BLE001 - a bug in reading one block must not lose the others
                    unit.frames, unit.specs = [], []
                    unit.error = f"{type(exc).__name__}: {exc}"
                units.append(unit)
            then, soft, workflow = "", False, False
            edits: tuple[str, ...] = ()
            words = [t.low for t in toks if t.kind == WORD]
            if "before" in words:
                at = next(k for k, t in enumerate(toks) if t.low == "before") + 1
                found = then_at(toks, at, len(toks))
                then = found[1] if found else ""
                # "## Before committing": its steps warn, unless the heading says they must pass
                soft = not hard(find_cues(toks))
                if then and done_at(toks, at, len(toks)):
                    # "### Run before considering work complete": the next commit after a change, a warning
                    soft, edits = True, (ANY_CHANGE,)
            elif (changed := heading_change(toks)) is not None:
                then, soft, edits = "commit", True, changed  # "After every code change": before the next commit
            elif (titled_then := workflow_title(words)):
                # "## Pre-commit checklist": a warning, unless it says its steps must pass; "## Task
                # completion checklist": the end of the work, the next commit after a change (a warning)
                then, soft, workflow = titled_then, not hard(find_cues(toks)), True
                if then == "done":
                    then, soft, edits = "commit", True, (ANY_CHANGE,)
            actions: tuple[str, ...] = ()
            verb = ""
            if titled is not None:
                actions, verb = tuple(titled[2]), titled[3]
            elif modality is not None and not any(t.kind == CJK for t in toks):
                verbed = next((f for f in read_clause(toks, Context()) if f.actions and f.actions != ["bare"]), None)
                if verbed is not None:
                    actions, verb = tuple(verbed.actions), verbed.verb
            condition, condition_text = read_conditions(toks, 0, len(toks)) if modality is not None else ("", "")
            headings.append(_Heading(block.level, modality[0] if modality else "", modality[1] if modality else "", then, soft,
                                     actions, verb, condition, condition_text, index, workflow, edits, title=" ".join(words)))
            continue
        if block.kind == "code" and block.parent == -1 and block.info in _SHELL_FENCES:
            _steps_block(source, blocks, index, headings, units, tokens, inventory)
            continue
        if block.kind not in _RULE_KINDS or block.kind == "html" and not (
                _generated_notice(block.inline.masked) or "generated file" in block.inline.masked.lower()):
            continue  # an HTML comment speaks to the file's editors, unless it marks the file generated
        unit = Unit(block, index)
        try:
            _read_block(source, blocks, index, unit, headings, inventory, first_text, tokens, scope)
        except Exception as exc:  # noqa: BLE001 - a bug in reading one block must not lose the others
            unit.frames, unit.specs = [], []
            unit.error = f"{type(exc).__name__}: {exc}"
        units.append(unit)
        if block.kind == "paragraph" and headings and (not headings[-1].then or headings[-1].titled) \
                and index + 1 < len(blocks) and blocks[index + 1].kind == "heading" \
                and blocks[index + 1].level > headings[-1].level and block.inline.masked.rstrip().endswith(COLONS):
            # "Before considering any task complete, you MUST run the following:" over "### 1. ESLint" and
            # its code block: the sentence is the section's ordering for its steps' code blocks (nearer
            # than a checklist title, and it says how strongly), not for every item below
            intro = Context()
            _inherit_intro(intro, blocks, index, tokens(index), Unit(block, index))
            if intro.then:
                top = headings[-1]
                top.then, top.soft, top.edits, top.index = intro.then, intro.soft, tuple(intro.edits), index
                top.steps_only, top.titled = True, False
    _lead_ins(blocks, units, tokens)
    _document_merge(units)
    return units


def _lead_ins(blocks: list[Block], units: list[Unit], tokens: Callable[[int], list[Token]]) -> None:
    """A line that introduces a list ("**Forbidden npm operations:**", "NEVER run these git
    commands:") gives its items its force, verb and condition; its own words name what the list is
    about (all of npm, git's writes), never more to stop. Its checks on what the list names stay;
    its checks of its own go when the list yields one, and only warn when it yields none."""
    by_index = {unit.index: unit for unit in units}
    carried: dict[int, bool] = {}
    listing: dict[int, bool] = {}
    for unit in units:
        intro = _intro(blocks, unit.index) if blocks[unit.index].kind == "bullet" else None
        if intro is not None and intro in by_index:
            carried[intro] = carried.get(intro, False) or bool(unit.specs)
            first = tokens(unit.index)[:1]
            # "- `npm publish`": the item names what the intro is about, it does not explain it
            listing[intro] = listing.get(intro, True) and bool(first) and first[0].kind == CODE
    for intro, items_checked in carried.items():
        unit = by_index[intro]
        block = blocks[intro]
        toks = tokens(intro)
        if not unit.specs or len(sentences(toks)) > 1 or any(t.kind == PUNCT and t.text in COLONS for t in toks[:-1]) or not (
                block.inline.masked.rstrip().endswith(COLONS) or _is_label(block) or _lead_in(block)):
            # "Never push to main. Follow these steps:", "**NEVER push to main**: all changes go through
            # this workflow:": the part before is a rule of its own
            continue
        # "these npm commands:" is the list, whatever its items say; "Forbidden npm operations:" names
        # the family its items belong to
        pointing = any(command_family(o) for _, frame in unit.frames for o in frame.objects)
        # "**Never commit:**", "Never commit or push:" over "- `.env` files": the verb stops at the
        # colon, so the list is its object; its own check would stop every commit
        bare = items_checked and not any(frame.objects or frame.targets for _, frame in unit.frames)
        if not listing[intro] and not pointing and not bare:
            # "Don't open PRs without discussion:", "**Never change the develop branch:**" over reasons
            # and steps: the intro is the rule, its items explain it
            continue
        named = {obj.text for obj in _following(blocks, intro, tokens)}
        listed = [spec for spec in unit.specs if _names_one_of(spec, named)]
        own = [spec for spec in unit.specs if spec not in listed]
        if not own:
            continue
        note = f"introduces the list below (line {block.line}): the list's items carry its checks"
        for _, frame in unit.frames:
            frame.notes.append(note)
        if items_checked or listed:
            unit.specs = listed
            continue
        for spec in own:
            if spec.verdict in ("deny", "ask"):
                spec.verdict = "warn"
                spec.why.append("a list's introduction whose items name nothing a check can hold: a warning")


def _names_one_of(spec: Spec, named: set[str]) -> bool:
    """The check is about one of these texts (a command or path the list names)."""
    pattern = spec.pattern if isinstance(spec.pattern, str) else " ".join(spec.pattern or ())
    return bool(named) and (pattern in named or spec.target in named or any(text and text in spec.what for text in named))


def _lists_objects(blocks: list[Block], index: int, tokens: Callable[[int], list[Token]]) -> bool:
    """The block after this one opens a list whose first item names a thing in code (a path, a
    command): what a heading or lead-in just above it is about."""
    if index + 1 >= len(blocks) or blocks[index + 1].kind != "bullet":
        return False
    first = [t for t in tokens(index + 1) if t.kind not in (PUNCT, SYMBOL)][:1]
    return bool(first) and first[0].kind == CODE


def _states_rule(toks: list[Token], listed: bool = False) -> bool:
    """A heading that says what not to do to something ("Never run `npm run build`"), not a
    label for its section ("NEVER", "Things to avoid", "Do not edit", "Never commit" over a
    list of paths)."""
    for frame in read_clause(toks, Context()):
        if frame.objects and all(o.kind == "pronoun" for o in frame.objects):
            continue  # "## Never commit these files": the list below is what it is about
        if listed and not frame.objects and not frame.targets:
            continue  # "## Never commit" over "- `secrets.yaml`": the verb's objects are the list
        if frame.modality in (BAN, AVOID, ASK) and frame.actions and (
                frame.objects or frame.targets or any(a not in ("bare", "run", "use", "edit", "delete", "create", "read")
                                                      for a in frame.actions)):
            return True
    return False


def _document_merge(units: list[Unit]) -> None:
    """A ban the same document allows elsewhere when the user asks ("Don't commit." and "Never
    commit unless explicitly asked") asks: the exception the author wrote is part of the rule."""
    asked = {spec_key(s) for u in units for s in u.specs if s.verdict == "ask" and s.condition}
    if not asked:
        return
    for unit in units:
        for spec in unit.specs:
            if spec.verdict == "deny" and spec_key(spec) in asked:
                spec.verdict = "ask"
                spec.why.append("the document allows it elsewhere when the user asks")


def _names_hooks(toks: list[Token]) -> bool:
    """The block names the git hooks (lexicon.nouns.HOOK_NOUNS)."""
    return any(t.kind == WORD and t.low.startswith(("hook", "pre-commit", "husky", "lefthook")) and (found := match(toks, k, "nouns")) is not None
               and found[1][0] == "hooks" for k, t in enumerate(toks))


def _read_block(source: str, blocks: list[Block], index: int, unit: Unit, headings: list[_Heading], inventory: Inventory,
                first_text: int, tokens: Callable[[int], list[Token]], scope: str) -> None:
    block = blocks[index]
    ctx = Context(item=block.kind in ("bullet", "row"), topic=headings[-1].title if headings else "")
    for heading in reversed(headings):
        if heading.modality and not ctx.modality:
            ctx.modality, ctx.cue = heading.modality, heading.cue
            ctx.actions, ctx.verb = list(heading.actions), heading.verb
            ctx.condition, ctx.condition_text = heading.condition, heading.condition_text
            unit.context.append(f"heading: '{heading.cue}' ({heading.modality})")
        if heading.then and not ctx.then and not heading.steps_only and not (
                heading.titled and _after_action(blocks, index, heading, tokens)):
            ctx.then, ctx.soft, ctx.edits = heading.then, heading.soft, list(heading.edits)
            unit.context.append(f"heading: ordering before {heading.then}")
    intro = _intro(blocks, index)
    if intro is not None:
        # a list with its own introduction takes its force from it, not from the heading
        ctx.modality = ctx.cue = ctx.verb = ""
        ctx.actions = []
        unit.context = [c for c in unit.context if not c.startswith("heading: '")]
        if opens_situation(tokens(intro)):
            # "For additional test options:" under a checklist: its items are options, not steps
            ctx.then, ctx.edits = "", []
            unit.context = [c for c in unit.context if not c.startswith("heading: ordering")]
        _inherit_intro(ctx, blocks, intro, tokens(intro), unit)
        outer = _intro(blocks, intro) if blocks[intro].kind == "bullet" else None
        if not ctx.modality and outer is not None and blocks[intro].inline.masked.rstrip().endswith(COLONS):
            # "do not make changes to:" / "- Vendored dependencies:" / "  - `src/leveldb`": an item that only
            # names a group of the list passes the list's force down to its own items
            _inherit_intro(ctx, blocks, outer, tokens(outer), unit)
    if not ctx.then and block.kind == "bullet" and block.ordered:
        # "1. Run `make` 2. Fix what fails 3. Commit and push": the steps before the commit
        step_action = _later_action(blocks, index, tokens)
        if step_action:
            # only the steps that check the work come before it, not chores ("run the release script")
            ctx.then, ctx.soft, ctx.steps = step_action, True, True
            if step_action == "done":
                # "4. Only mark the task as complete when all checks pass": the next commit after a change
                ctx.then, ctx.edits = "commit", [ANY_CHANGE]
            unit.context.append(f"steps: a later step does the {step_action}")
    ctx.header = block.kind == "html" or (index == first_text and _generated_notice(block.inline.masked)
                                          and _about_this_file(block.inline.masked))
    ctx.label = _label(tokens(index)) if block.kind in ("bullet", "row") else []
    following = _following(blocks, index, tokens)
    if ctx.then and block.kind == "bullet":
        # "1. **Run tests**" and the code block nested under it: the commands of the step
        following = following + _nested_commands(blocks, index)
    ctx.following = following
    place = Place(source, block.line, block.section, label=ctx.label, following=following, header=ctx.header,
                  inventory=inventory, codes=[Obj("code", t.text) for t in tokens(index) if t.kind == CODE], scope=scope)
    if intro is not None:
        place.antecedents = _mentions(tokens(intro))
    place.hooks = _names_hooks(tokens(index))
    place.types = listed_types(tokens(index))
    # a heading's or intro's force reaches the item's first clause; what follows explains it
    later = Context(label=ctx.label, following=ctx.following, header=ctx.header, item=ctx.item)
    pieces: list[tuple[list[Token], Context, Context]] = []
    label = _force_label(tokens(index))
    if block.kind == "row" and block.cells:
        pieces = _row_pieces(block, ctx, unit)
    if not pieces and label is not None:
        # "**Never:** edit `gen/`; run `make nuke`", "Ask first: adding dependencies": every part
        # of what follows the label has its force
        modality, cue, after = label[:3]
        body = tokens(index)[after:]
        if modality == REQUIRE:
            modality = cue = ""  # "**Always do:** run X before committing": what follows says it all
        elif modality == ASK and body and body[0].kind == WORD and body[0].low == "before":
            # "**Ask first:** before modifying X": ask before modifying X
            body = [Token(WORD, "ask", "ask", body[0].start)] + body
            modality = cue = ""
        own = Context(modality=modality, cue=cue, label=ctx.label, following=ctx.following, header=ctx.header, item=True,
                      actions=label[3], verb=label[4])
        unit.context.append(f"label: '{label[1]}' ({label[0]})")
        pieces = [(body, own, own)]
    if not pieces and block.kind == "row" and ctx.label:
        # "| `schema.graphql` | DO NOT EDIT (generated) |": the cells after the path are read like the
        # clauses of "- `schema.graphql` — DO NOT EDIT (generated)"
        cells = [Token(PUNCT, "\u2014", "\u2014", t.start, spaced=True) if t.kind == PUNCT and t.text == "|" else t
                 for t in tokens(index)]
        pieces = [(cells, ctx, later)]
    run_when = _when_to_run(blocks, headings, tokens) if block.kind == "bullet" and intro is None and not pieces else None
    if run_when is not None:
        # "## When to run `make proto`" over "- after changing files in `proto/`", "- before opening a
        # PR": each item is an ordering of that command, read as "run `make proto` after ..." (advice)
        item = tokens(index)
        start = item[0].start if item else 0
        body = [Token(WORD, "run", "run", start), Token(CODE, run_when, run_when.lower(), start)] + item
        advised = Context(label=ctx.label, following=ctx.following, header=ctx.header, item=True, advised=True)
        unit.context.append(f"heading: when to run `{run_when}`")
        pieces = [(body, advised, advised)]
    if not pieces:
        pieces = [(tokens(index), ctx, later)]
    for toks, first_ctx, later_ctx in pieces:
        _read_tokens(toks, first_ctx, later_ctx, block, place, unit)
    unit.specs = _merge(unit.specs)


def _when_to_run(blocks: list[Block], headings: list[_Heading], tokens: Callable[[int], list[Token]]) -> str | None:
    """The command of the nearest heading "When to run `X`" (lexicon.markers.WHEN_TO_RUN_TITLES and
    a code span), None under another heading."""
    if not headings:
        return None
    toks = [t for t in tokens(headings[-1].index) if t.kind in (WORD, CODE)]
    words = next((len(title.split()) for title in WHEN_TO_RUN_TITLES
                  if [t.low for t in toks[: len(title.split())]] == title.split()), 0)
    if words and len(toks) > words and toks[words].kind == CODE:
        return toks[words].text
    return None


def _read_tokens(toks: list[Token], ctx: Context, later: Context, block: Block, place: Place, unit: Unit) -> None:
    """Read sentences and clauses into frames and resolve them: the first clause with `ctx`, the
    rest with `later`."""
    first = True
    for sentence in sentences(toks):
        sentence_frames: list[tuple[int, Frame]] = []
        # "edit → `make test` → commit → push": a workflow on one line is read whole, its steps in order
        chain = read_chain(sentence, ctx if first else later)
        for clause in [] if chain else _ask_joined(clauses(sentence)):
            if not clause:
                continue
            frames = read_clause(clause, ctx if first else later)
            first = False
            for frame in frames:
                line = block.inline.line_of(frame.start, block.line) if block.kind != "row" else block.line
                sentence_frames.append((line, frame))
        if chain:
            first = False
            sentence_frames += [(block.inline.line_of(frame.start, block.line) if block.kind != "row" else block.line, frame)
                                for frame in chain]
        named = {o.text for _, f in sentence_frames if not f.preference for o in f.objects}
        # "Use `pnpm` - never use npm or yarn": what the text names says which others it means
        sentence_frames = [(line, f) for line, f in sentence_frames if not (f.preference and named & {o.text for o in f.objects})]
        # "Don't run python directly - always go through `uv run`", "Python goes through `uv run`, never
        # bare `python`": the runner the sentence names is the way it prescribes, with or without a rule of its own
        runners = [f.runner for _, f in sentence_frames if f.runner] or [
            t.text for t in sentence if t.kind == CODE and runner_span(t.text)]
        for _, frame in sentence_frames:
            if runners and not frame.runner and frame.modality in (BAN, AVOID) and not frame.alternatives:
                frame.alternatives = [Obj("code", runner) for runner in runners]
        positive = [o for _, f in sentence_frames if f.modality in ("require", "only", "") and not f.ordering
                    for o in f.objects if o.kind in ("code", "program")]
        before = place.antecedents
        for line, frame in sentence_frames:
            if ctx.condition and frame.modality == BAN and not frame.condition:
                # "### Prohibited (Without Approval)" over "- ❌ Edit `x`": the heading's condition holds for its items
                frame.condition, frame.condition_text = ctx.condition, ctx.condition_text
            place.line = line
            place.instead = positive or place.instead
            # "Main branch is protected - never push to it": what the sentence named before the clause
            place.antecedents = before + _mentions([t for t in sentence if t.start < frame.start])
            frame_specs = [cap(spec) for spec in resolve(frame, place)]
            for spec in frame_specs:
                spec.line = line
                if ctx.table and spec.kind == "command" and not spec.category and len(spec.pattern) == 1 \
                        and spec.verdict in ("deny", "ask"):
                    # "| Read files | `cat` |" under "❌ Forbidden": a whole program named in a cell, whose
                    # row or table may hold a condition elsewhere: a warning
                    spec.verdict = "warn"
                    spec.why.append("a program named alone in a table cell: a warning")
            unit.specs += frame_specs
        unit.frames += sentence_frames
        place.antecedents = before + _mentions(sentence)


def _ask_joined(parts: list[list[Token]]) -> list[list[Token]]:
    """"Install packages - ASK FIRST": a last clause that is only the force of the one before it
    rejoins it (read by frames.ask_after), when that one is an order ("Install ...")."""
    if len(parts) < 2:
        return parts
    joined = parts[-2] + [Token(PUNCT, ",", ",", parts[-1][0].start)] + parts[-1] if parts[-1] else []
    if not joined or ask_after(joined, find_cues(joined)) is None:
        return parts
    return parts[:-2] + [joined]


def _force_label(toks: list[Token]) -> tuple[str, str, int, list[str], str] | None:
    """A label that gives what follows it its force ("**Never:**", "❌ Don't", "Ask first",
    "禁止:", "⚠️ **Ask First** (需审批)", "**Files you must not edit:**"): (modality, its words, the
    index after the label, its actions and verb when it names them). The label is every word
    before the block's first colon, or every word of the block."""
    colon = next((k for k, t in enumerate(toks[:12]) if t.kind == PUNCT and t.text in (":", "\uff1a")), -1)
    head = toks[:colon] if colon != -1 else toks
    depth = 0
    kept: list[Token] = []
    for tok in head:
        if tok.kind == PUNCT and tok.text in ("(", "\uff08"):
            depth += 1
        elif tok.kind == PUNCT and tok.text in (")", "\uff09"):
            depth = max(0, depth - 1)
        elif depth == 0 and tok.kind in (WORD, CJK, CODE, QUOTE):
            kept.append(tok)
    after = colon + 1 if colon != -1 else len(toks)
    titled = files_title(kept)
    if titled is not None:
        return titled[0], titled[1], after, titled[2], titled[3]
    if not kept or len(kept) > 6 or any(t.kind in (CODE, QUOTE) for t in kept):
        return None
    found = label_modality(kept)
    if found is None and (found := family_label(kept)) is not None:
        return found[0], found[1], after, ["run"], "run"  # "**Forbidden npm commands:** `npm publish`"
    if found is None:
        return None
    return found[0], found[1], after, [], ""


def _row_pieces(block: Block, ctx: Context, unit: Unit) -> list[tuple[list[Token], Context, Context]]:
    """A table row whose column header or first cell is a label ("| Task | ❌ Forbidden | ✅ Use |",
    "| **Never** | commit secrets; edit `dist/` |"): each labelled cell is read as items with the
    label's force; cells under a column of what to use instead are the alternative."""
    cells = [tokenize(grammar.blank_tags(cell.masked), cell.codes) for cell in block.cells]
    forces: list[tuple[str, str] | None] = []
    for k in range(len(cells)):
        header = block.header[k] if k < len(block.header) else ""
        label = _force_label(tokenize(grammar.blank_tags(header), ())) if header and "`" not in header else None
        forces.append((label[0], label[1]) if label is not None and label[2] >= 0 else None)
    first = _force_label(cells[0]) if cells else None
    if first is not None and first[2] >= len(cells[0]):
        forces = [None] + [(first[0], first[1])] * (len(cells) - 1)
    if not any(forces):
        return []
    pieces: list[tuple[list[Token], Context, Context]] = []
    for k, force in enumerate(forces):
        if force is None or k >= len(cells):
            continue
        unit.context.append(f"table column: '{force[1]}' ({force[0]})")
        for item in _cell_items(cells[k]):
            own = Context(modality=force[0], cue=force[1], item=True, table=True)
            pieces.append((item, own, own))
    return pieces


def _cell_items(toks: list[Token]) -> list[list[Token]]:
    """A table cell's items: parts set apart by `<br>`, bullets (•) or semicolons."""
    return split_at(toks, lambda tok: tok.low in ("<br>", "<br/>", "<br />", "\u2022", ";")
                    or (tok.kind == SYMBOL and tok.text == "\u2022"))


def _about_this_file(text: str) -> bool:
    """A notice about the document itself ("This file is generated ..."), not about a path it
    names ("The `api/` directory is auto-generated")."""
    low = text.lower()
    if "this file" in low or "this document" in low:
        return True
    first = low.lstrip("#>*_ -:").split(".")[0]
    return CODE_OPEN not in first and not any(w in first.split() for w in ("directory", "folder", "files", "dir"))


def _generated_notice(text: str) -> bool:
    low = text.lower()
    return any(w in low for w in ("auto-generated", "autogenerated", "generated by", "generated from", "do not edit this file",
                                  "this file is generated"))


def _intro(blocks: list[Block], index: int) -> int | None:
    """The block that introduces this one's list: its parent item, or the paragraph just before the list."""
    block = blocks[index]
    if block.parent != -1:
        return block.parent
    if block.kind == "bullet" and block.list_id > 0:
        before = blocks[block.list_id - 1]
        if before.kind in ("paragraph", "bullet") and before.section == block.section and (
                before.inline.masked.rstrip().endswith(COLONS) or _is_label(before) or _lead_in(before)):
            return block.list_id - 1
    if block.kind == "row":
        return None
    return None


def _lead_in(block: Block) -> bool:
    """A short line with a rule word and no full stop just above a list ("**NEVER EDIT GENERATED
    FILES**"): the list is what it is about."""
    masked = block.inline.masked.rstrip()
    if block.kind != "paragraph" or masked.endswith((".", "!", "?")) or len(masked.split()) > 10:
        return False
    toks = tokenize(grammar.blank_tags(masked), block.inline.codes)
    return any(c[2] in (BAN, AVOID, ASK) for c in find_cues(toks))


def _is_label(block: Block) -> bool:
    """A paragraph that is only a label ("**Never**", "Ask first:")."""
    toks = tokenize(grammar.blank_tags(block.inline.masked), block.inline.codes)
    found = _force_label(toks)
    return found is not None and found[2] >= len(toks)


def _inherit_intro(ctx: Context, blocks: list[Block], intro: int, toks: list[Token], unit: Unit) -> None:
    """The force, verb and condition of the intro's last sentence, for items without their own."""
    label = _force_label(toks)
    if label is not None and label[2] >= len(toks) and label[0] != REQUIRE:
        ctx.modality, ctx.cue = label[0], label[1]
        ctx.actions, ctx.verb = label[3], label[4]
        unit.context.append(f"label (line {blocks[intro].line}): '{label[1]}' ({label[0]})")
        return
    parts = sentences(toks)
    if not parts:
        return
    last = parts[-1]
    # "NEVER push directly to main: All changes must go through this workflow:": the part before
    # the final colon introduces the list
    colons = [k for k, t in enumerate(last[:-1]) if t.kind == PUNCT and t.text in COLONS]
    if colons and colons[-1] + 1 < len(last):
        last = last[colons[-1] + 1 :]
    if not (blocks[intro].inline.masked.rstrip().endswith(COLONS) or blocks[intro].kind == "bullet" or _lead_in(blocks[intro])):
        return
    from cf_guidance.policy.steps import read_step

    reading = read_step(last, find_cues(last), ctx, intro=True) if blocks[intro].inline.masked.rstrip().endswith(COLONS) else None
    if reading is not None and reading.ordering is not None and not reading.ordering.first and ctx.step is None:
        # "Read these first:", "Always read these at the start of each cycle:": the items' files
        ctx.step = reading.ordering
        unit.context.append(f"intro (line {blocks[intro].line}): read the items' files first")
        return
    situation = _situation(last)
    if situation:
        # "If a migration failed:" over "- don't push again": the items hold only in that situation
        ctx.condition, ctx.condition_text = "unchecked", situation
        unit.context.append(f"intro (line {blocks[intro].line}): only '{situation}', which no tool call shows")
    outside = outside_parentheses(last)
    if len(outside) < len(last) and not find_cues(outside) and any(action_at(outside, k, len(outside)) for k in range(len(outside))):
        # "update the V2 docs (do not modify the legacy ones):": the list is what the main clause
        # names; the ban in parentheses is an aside about other files
        last = outside
        unit.context.append(f"intro (line {blocks[intro].line}): a ban in parentheses is an aside")
    inner = Context(modality=ctx.modality, cue=ctx.cue)
    for clause in clauses(last):
        for frame in read_clause(clause, inner):
            if frame.alternatives or any(o.kind == "pronoun" for o in frame.objects):
                continue  # a substitution ("use X instead of Y:"), or "avoid this:" whose objects are the list
            if frame.modality in (BAN, AVOID, ASK):
                if not any("a description" in n for n in frame.notes):
                    ctx.modality, ctx.cue = frame.modality, frame.cue
                    ctx.actions = [a for a in frame.actions if a != "bare"]
                    ctx.verb = frame.verb
                    if frame.condition:
                        ctx.condition, ctx.condition_text = frame.condition, frame.condition_text
                    unit.context.append(f"intro (line {blocks[intro].line}): '{frame.cue}' {frame.verb}".rstrip())
            if frame.ordering is not None and not ctx.then:
                pass
    cues = find_cues(last)
    required = [c for c in cues if c[2] == REQUIRE]
    texts = surfaces_of([t.low for t in last[: required[0][0]] if t.kind == WORD]) if required else []
    if texts and not ctx.texts:
        # "Commits MUST:", "PR titles should:": the items are forms of those texts, said with that force
        ctx.texts, ctx.texts_cue = texts, required[0][3]
        unit.context.append(f"intro (line {blocks[intro].line}): the form of {', '.join(texts)} texts, '{required[0][3]}'")
    # "Before committing, run the following commands:" (as strongly as its cue says)
    if not any(c[2] in (BAN, AVOID, ASK) for c in cues) and any(t.kind == WORD and t.low == "before" for t in last):
        k = next(k for k, t in enumerate(last) if t.low == "before")
        found = then_at(last, k + 1, len(last))
        if found is not None and (not ctx.then or cues):
            # the intro is nearer than the heading: "the following must pass" under "## Pre-commit checklist"
            # is hard; a plain "Before committing, run:" warns unless a heading above says its steps must pass
            ctx.then, ctx.soft = found[1], not hard(cues) and (ctx.soft or not ctx.then)
            unit.context.append(f"intro: ordering before {found[1]}")
            if done_at(last, k + 1, len(last)):
                # "After making code changes and before declaring a task complete, you MUST:": the work
                # declared done is seen at the next commit after the last change, a warning
                ctx.soft, ctx.edits = True, [ANY_CHANGE]
    elif not any(c[2] in (BAN, AVOID, ASK) for c in cues) and not ctx.then and (changed := heading_change(last)) is not None:
        # "After touching the API:", "When you change a migration, run:" and the steps below
        ctx.then, ctx.edits = "commit", list(changed)
        ctx.soft = changed == (ANY_CHANGE,) and not hard(cues) or changed != (ANY_CHANGE,)
        unit.context.append(f"intro: ordering after a change ({' '.join(changed)}), before the next commit")


def _situation(toks: list[Token]) -> str:
    """The situation an intro opens with ("If a migration failed:"; lexicon.markers.SITUATION_INTROS),
    or "" when there is none, it is an action the hook sees ("When committing:") or it names a path
    or command ("If you touch `proto/`:")."""
    words = [t.low for t in toks if t.kind == WORD]
    opener = next((w for w in _markers.SITUATION_INTROS if words[: len(w.split())] == w.split()), "")
    if not opener or any(t.kind in (CODE, QUOTE) for t in toks) or find_cues(toks) or any(
            t.kind == PUNCT and t.text == "," or t.low in _LIST_WORDS for t in toks):
        return ""  # "When the feature is ready, follow these steps:": a main clause about the list, no situation
    start = next(k for k, t in enumerate(toks) if t.kind == WORD) + len(opener.split())
    if then_at(toks, start, len(toks)) is not None:
        return ""
    return " ".join(t.text for t in toks if t.kind == WORD)


#: words of a main clause that points at the list ("follow these steps", "the following")
_LIST_WORDS = frozenset(("these", "following", "steps", "follow", "below"))


def _label(toks: list[Token]) -> list[Obj]:
    """Code spans an item opens with, before " - ", " — " or ":" ("`plugins/` — Generated copies"),
    also after a short heading of its own ("Core changes: `cargo test` - ask user first")."""
    branch = _branch_label(toks)
    if branch is not None:
        return [branch]
    out: list[Obj] = []
    words = 0
    colon = next((k for k, tok in enumerate(toks[:5]) if tok.kind == PUNCT and tok.text == ":"), -1)
    if colon > 0 and all(tok.kind == WORD for tok in toks[:colon]) and colon + 1 < len(toks) and toks[colon + 1].kind == CODE:
        toks = toks[colon + 1 :]
    for k, tok in enumerate(toks):
        if tok.kind == CODE:
            out.append(Obj("code", tok.text))
            continue
        if tok.kind == PUNCT and tok.text in ("-", "--", "\u2013", "\u2014", ":", "|") and out:
            return out
        if tok.kind == PUNCT and tok.text in (",", "/"):
            continue
        if tok.kind == WORD and tok.low in _LABEL_WORDS and words < 3:
            words += 1  # "The real `.env` file — never read it"
            continue
        return []
    return []


_LABEL_WORDS = frozenset("the a real actual local generated file files directory folder config".split())


def _branch_label(toks: list[Token]) -> Obj | None:
    """A branch an item opens with as its label ("**Main branch** - never commit directly", "The
    master branch: no direct pushes"): what a git verb without an object of its own is about.
    Only a phrase with the word "branch" (lexicon nouns.BRANCH_NOUNS): "**Main** - ..." may name anything."""
    found = match(toks, 0, "nouns")
    if found is None or found[1][0] != "branch" or found[0] >= len(toks):
        return None
    if "branch" not in {tok.low for tok in toks[: found[0]]}:
        return None
    if toks[found[0]].kind != PUNCT or toks[found[0]].text not in ("-", "--", "\u2013", "\u2014", ":"):
        return None
    return Obj("branch", found[1][1], "on", meaning={"branch": found[1][1]})


def _following(blocks: list[Block], index: int, tokens_of: Callable[[int], list[Token]]) -> list[Obj]:
    """Objects the list after an intro names (code spans, split at `&&`; paths; file nouns)."""
    block = blocks[index]
    if not block.inline.masked.rstrip().endswith(COLONS):
        return []
    out: list[Obj] = []
    after = blocks[index + 1] if index + 1 < len(blocks) else None
    if after is not None and after.kind == "code" and after.info in _SHELL_FENCES:
        # "Before pushing, rebase onto main:" and the commands below it
        out += [Obj("code", part, "block") for part in _code_commands(after.code)]
    children = [k for k in range(index + 1, min(len(blocks), index + 40))
                if blocks[k].kind == "bullet" and (blocks[k].parent == index or (
                    block.kind == "paragraph" and blocks[k].list_id == index + 1 and blocks[k].parent == -1))]
    for k in children:
        for tok in tokens_of(k):
            if tok.kind == CODE:
                for part in _split_commands(tok.text):
                    out.append(Obj("code", part))
            elif tok.kind == QUOTE:
                out.append(Obj("quote", tok.low))
    return out


def _code_commands(code: str) -> list[str]:
    """The commands of a shell code block, one per line (prompts and comments dropped)."""
    out: list[str] = []
    for raw in code.split("\n")[:20]:
        line = raw.strip().removeprefix("$ ").strip()
        if line and not line.startswith("#"):
            out += _split_commands(line.split(" #")[0])
    return out


def _nested_commands(blocks: list[Block], index: int) -> list[Obj]:
    """The commands of the shell code blocks nested in the item at `index`."""
    out: list[Obj] = []
    for k in range(index + 1, min(len(blocks), index + 6)):
        if blocks[k].parent != index:
            break
        if blocks[k].kind == "code" and blocks[k].info in _SHELL_FENCES:
            out += [Obj("code", part, "block") for part in _code_commands(blocks[k].code)]
    return out


def _after_action(blocks: list[Block], index: int, heading: _Heading, tokens_of: Callable[[int], list[Token]]) -> bool:
    """The item at `index`, under a workflow heading, comes at or after the step that does the
    heading's action ("3. Commit with a clear message", "4. `git push`"): not a step before it."""
    block = blocks[index]
    if block.kind != "bullet":
        return False
    for k in range(block.list_id if block.list_id >= 0 else index, index + 1):
        if k <= heading.index or blocks[k].kind != "bullet" or blocks[k].list_id != block.list_id:
            continue
        toks = [t for t in tokens_of(k) if t.kind in (WORD, CODE)]
        if toks and then_at(toks, 0, 1) is not None and then_at(toks, 0, 1)[1] == heading.then:  # type: ignore[index]
            return True
    return False


def _starts_with_action(toks: list[Token]) -> str:
    """The git action a step opens with ("Commit and push", "`git push`", "Open a PR"), "done" for
    a step that ends the work ("Only mark the task as complete when all checks pass"), or ""."""
    toks = [t for t in toks if t.kind in (WORD, CODE)]
    if toks and toks[0].kind == WORD and done_at(toks, 0, min(len(toks), 8)):
        return "done"
    found = then_at(toks, 0, min(len(toks), 4)) if toks else None
    return found[1] if found is not None and found[1] in ("commit", "push", "pr") else ""


def _later_action(blocks: list[Block], index: int, tokens_of: Callable[[int], list[Token]]) -> str:
    """The git action a later step of the numbered list at `index` does, "" when none does (or
    this step does one itself)."""
    block = blocks[index]
    if _starts_with_action(tokens_of(index)):
        return ""
    for k in range(index + 1, min(len(blocks), index + 40)):
        other = blocks[k]
        if other.kind == "heading":
            break
        if other.kind == "bullet" and other.list_id == block.list_id:
            action = _starts_with_action(tokens_of(k))
            if action:
                return action
    return ""


def _steps_block(source: str, blocks: list[Block], index: int, headings: list[_Heading], units: list[Unit],
                 tokens_of: Callable[[int], list[Token]], inventory: Inventory) -> None:
    """A shell code block right under a heading that states an ordering ("### Before committing",
    "## Pre-commit checklist" and the commands): each command, but the git action itself, must run
    first. The heading is the rule (its line and text); a block after a sentence ending in ":" is
    that sentence's."""
    heading = next((h for h in reversed(headings) if h.then), None)
    if heading is None or headings[-1] is not heading and not _step_heading(join(tokens_of(headings[-1].index))):
        return  # under "### Troubleshooting" of "## Before committing": not its steps
    previous = blocks[index - 1]
    if previous.kind not in ("heading", "code", "paragraph") or previous.kind == "paragraph" and (
            previous.inline.masked.rstrip().endswith(COLONS) or find_cues(tokens_of(index - 1))):
        return
    first = [Obj("code", part, "block") for part in _code_commands(blocks[index].code)]
    first = [o for o in first if not does_action(o.text)]
    if not first:
        return
    unit = next((u for u in units if u.index == heading.index), None)
    if unit is None:
        unit = Unit(blocks[heading.index], heading.index)
        units.append(unit)
    elif unit.error:
        return
    # a code block is shown more often than prescribed ("### Before committing" and the usual
    # commands): a warning, unless the heading says the steps must pass
    soft = heading.soft or not hard(find_cues(tokens_of(heading.index)))
    frame = Frame(REQUIRE, ordering=Ordering(first, heading.then, soft=soft, edits=list(heading.edits)), start=0,
                  text=join(tokens_of(heading.index)), inherited=True,
                  notes=[f"the commands of the code block at line {blocks[index].line} before {heading.then}"])
    unit.context.append(f"heading: ordering before {heading.then}")
    place = Place(source, blocks[heading.index].line, blocks[heading.index].section, inventory=inventory)
    unit.frames.append((blocks[heading.index].line, frame))
    unit.specs = _merge(unit.specs + [cap(spec) for spec in resolve(frame, place)])


def _step_heading(text: str) -> bool:
    """"### 1. Run the linter", "### Step 2: Tests": a heading that is one step of the section above."""
    low = text.lower()
    return low[:1].isdigit() or low.startswith(("step ", "run "))


def _split_commands(code: str) -> list[str]:
    parts = [p.strip() for chunk in code.split("&&") for p in chunk.split(";")]
    return [p for p in parts if p and not p.startswith(("cd ", "echo ", "export ")) and p != "cd"]


def _mentions(toks: list[Token]) -> list[Obj]:
    """What a sentence mentions that a later pronoun may mean: code spans, programs, paths, branches."""
    out: list[Obj] = []
    example = maker = False
    for k, tok in enumerate(toks):
        if tok.kind == PUNCT and tok.text in ("(", ")"):
            example = tok.text == "(" and k + 1 < len(toks) and match(toks, k + 1, "examples") is not None
            continue
        if example:
            continue  # "(e.g., `/workspace/x`)": an illustration, not what a later "them" means
        if tok.kind == WORD and tok.low in ("by", "from") and k > 0 and toks[k - 1].low in _markers.MAKER_PARTICIPLES:
            maker = True  # "generated by the scripts in `scripts/`": what makes them, not what they are
        elif tok.kind == PUNCT and tok.text in (".", ";", ",", ":"):
            maker = False
        if maker:
            continue
        named = match(toks, k, "nouns") if tok.kind == WORD else None
        if named is not None and named[1][0] == "branch":
            # "never change the release branch ... never push to it": what "to it" means
            out.append(Obj("branch", " ".join(t.text for t in toks[k:named[0]]), "to", {"branch": named[1][1]}))
        elif tok.kind == CODE:
            out.append(Obj("code", tok.text))
        elif tok.kind == WORD and tok.low in KNOWN_PROGRAMS:
            out.append(Obj("program", tok.low))
        elif tok.kind == WORD and "/" in tok.text and not tok.text.startswith("http"):
            out.append(Obj("path", tok.text))
    return out[-12:]


def _merge(specs: list[Spec]) -> list[Spec]:
    """One check per thing a block is about: "Never X. Only X if the user asks." asks."""
    out: list[Spec] = []
    by_key: dict[str, Spec] = {}
    for spec in specs:
        key = spec_key(spec)
        previous = by_key.get(key)
        if previous is None:
            by_key[key] = spec
            out.append(spec)
            continue
        if previous.verdict == "warn" and spec.verdict in ("deny", "ask"):
            # "Use pnpm. Never use npm.": the explicit rule is the stronger one
            out[out.index(previous)] = by_key[key] = spec
        elif spec.verdict == "ask" and spec.condition and previous.verdict == "deny":
            previous.verdict = "ask"
            previous.condition = spec.condition
            previous.why.append(f"line {spec.line} allows it when the user asks ({spec.condition})")
    return out


# --- the document's own commands ----------------------------------------------------------------


def build_inventory(blocks: list[Block], tokens_of: Callable[[int], list[Token]]) -> Inventory:
    inventory = Inventory()
    negative_sections: set[tuple[str, ...]] = set()
    for index, block in enumerate(blocks):
        if block.kind == "heading":
            modality = heading_modality(tokens_of(index))
            if modality and modality[0] in (BAN, AVOID):
                negative_sections.add(block.section)
            continue
        if block.kind == "code":
            if block.info not in _SHELL_FENCES:
                continue
            intro = blocks[index - 1] if index > 0 and blocks[index - 1].kind in ("paragraph", "bullet") else None
            intro_text = intro.inline.masked.lower() if intro is not None else ""
            negative = any(block.section[: len(s)] == s for s in negative_sections) or any(
                w in intro_text for w in ("instead of", "never", "don't", "do not", "wrong", "avoid", "not:"))
            _code_block_commands(block, inventory, not negative)
            continue
        if block.kind not in _RULE_KINDS:
            continue
        if block.kind in ("paragraph", "bullet") and block.inline.masked.rstrip().endswith(COLONS):
            _listed_kinds(blocks, index, tokens_of, inventory)
        for sentence in sentences(tokens_of(index)):
            if not any(t.kind == CODE for t in sentence):
                continue
            cues = find_cues(sentence)
            banned_from = min((c[0] for c in cues if c[2] in (BAN, AVOID)), default=len(sentence))
            context = " ".join(t.low for t in sentence if t.kind == WORD) + " " + " ".join(block.section).lower()
            for k, tok in enumerate(sentence):
                if tok.kind != CODE:
                    continue
                for part in _split_commands(tok.text):
                    words = _words(part)
                    if words and grammar.command_pattern(part, lenient=True) is not None or (words and "=" in words[0]):
                        positive = (k < banned_from or _required_by_ban(sentence, cues, banned_from, k)) and not _after_not(sentence, k)
                        inventory.add(words, context, block.section, positive)
            _same_commands(sentence, banned_from, inventory)
    return inventory


def _same_commands(sentence: list[Token], banned_from: int, inventory: Inventory) -> None:
    """"`just fmt` or `just f`", "`make fmt` (or `gofmt -w .`)": two commands the sentence joins
    as one (lexicon.markers.SAME_COMMAND_LINKS), not as items of a longer list ("`a`, `b` or `c`")."""
    codes = [k for k, tok in enumerate(sentence[:banned_from]) if tok.kind == CODE]
    for first, second in zip(codes, codes[1:]):
        between = [t for t in sentence[first + 1 : second] if not (t.kind == PUNCT and t.text in "()")]
        if not between or not all(t.low in _markers.SAME_COMMAND_LINKS for t in between):
            continue
        before = sentence[first - 1] if first > 0 else None
        after = sentence[second + 1] if second + 1 < len(sentence) else None
        if (before is not None and before.low in (",", "or", "and", "/")) or (after is not None and after.low in (",", "or", "and", "/")):
            continue  # "`make lint`, `make test` or `make e2e`": steps of a list
        a, b = _words(sentence[first].text), _words(sentence[second].text)
        if a and b and a != b:
            inventory.same.append((a, b))


def _listed_kinds(blocks: list[Block], index: int, tokens_of: Callable[[int], list[Token]], inventory: Inventory) -> None:
    """"Files are auto-generated by `cargo dev generate-all`:" then a list of paths: those are the
    generated files of this document (lexicon.nouns.PathNoun.marks)."""
    words = set(blocks[index].inline.masked.lower().replace(":", " ").replace(",", " ").split())
    for noun in PATH_NOUNS:
        if noun.marks and words & set(noun.marks):
            paths = [o.text for o in _following(blocks, index, tokens_of) if o.kind in ("code", "path") and " " not in o.text]
            inventory.kinds.setdefault(noun.globs, []).extend(p for p in paths if p not in inventory.kinds[noun.globs])


def _required_by_ban(sentence: list[Token], cues: list[tuple[int, int, str, str]], banned_from: int, k: int) -> bool:
    """"Never commit without running `npm test`", "Never use `bun test` - always use `bun bd test`":
    a command after the ban's "without" / "until" / "unless", or after an "always" / "must" that
    follows the ban, is what the sentence asks for, not what it forbids."""
    return any(t.kind == WORD and t.low in ("without", "until", "unless") for t in sentence[banned_from:k]) or any(
        banned_from < c[0] < k and c[2] in (REQUIRE, ONLY) for c in cues)


def _after_not(sentence: list[Token], k: int) -> bool:
    return any(t.kind == WORD and t.low in ("not", "instead", "never") for t in sentence[max(0, k - 3):k])


def _code_block_commands(block: Block, inventory: Inventory, positive: bool) -> None:
    comment = ""
    for raw in block.code.split("\n")[:200]:
        line = raw.strip()
        if line.startswith(("$ ", "> ", "% ")):
            line = line[2:]
        if not line:
            comment = ""
            continue
        if line.startswith("#"):
            comment = line.lstrip("#").strip().lower()
            if any(w in comment for w in ("wrong", "never", "don't", "do not", "no!", "bad")):
                comment += " negative"
            continue
        text, _, trailing = line.partition(" #")
        context = f"{comment} {trailing.lower()} {' '.join(block.section).lower()}"
        good = positive and "negative" not in comment and "no!" not in trailing.lower()
        for part in _split_commands(text.replace("||", "&&").replace("|", "&&")):
            words = _words(part)
            program = words[0].rsplit("/", 1)[-1] if words else ""
            # a runner is how the document runs a program (`mise exec -- pnpm test`)
            if words and (program in KNOWN_PROGRAMS or program in WRAPPER_RUNNERS or "/" in words[0] or "=" in words[0]
                          or words[0].endswith((".sh", ".py", ".js", ".ts"))):
                inventory.add(words, context, block.section, good)


def _words(command: str) -> list[str]:
    if not any(c in command for c in "'\"\\"):
        return command.split()  # most commands: no quoting to undo
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def describe(unit: Unit) -> str:
    """The block's text for traces, in the author's words (its clauses show how they were read)."""
    return join(tokenize(grammar.blank_tags(unit.block.inline.masked), unit.block.inline.codes, glossed=False))


__all__ = ["Unit", "build_inventory", "describe", "extract", "match"]
