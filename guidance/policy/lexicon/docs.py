"""The lexicon as documentation: every table with its entries and examples, as markdown.

docs/policy-grammar.md holds this text between the `lexicon:begin` and `lexicon:end` markers;
tests/policy/test_lexicon.py checks it is current (`cf-guidance rules --lexicon` prints it;
`python -m cf_guidance.policy.lexicon.docs docs/policy-grammar.md` rewrites the marked part).
"""

from __future__ import annotations

from typing import Any

from cf_guidance.policy.lexicon import Example
from cf_guidance.policy.lexicon import actions, categories, cjk, cues, european, markers, nouns, programs, shapes, steps, things


def entries() -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    out += [(f"cue:{c.name}", c) for c in cues.CUES]
    out += [(f"heading:{c.name}", c) for c in cues.HEADING_CUES]
    out += [(f"label:{c.name}", c) for c in cues.LABEL_CUES]
    out += [(f"file-title:{c.name}", c) for c in cues.FILE_TITLES]
    out += [(f"action:{a.name}", a) for a in actions.ACTIONS]
    out += [(f"unchanged:{u.name}", u) for u in actions.UNCHANGED]
    out += [(f"category:{c.name}", c) for c in categories.CATEGORIES if c.examples] + [
        (f"category-list:{c.name}", c) for c in categories.CATEGORIES if not c.examples]
    out += [(f"thing:{t.name}", t) for t in things.THINGS]
    out += [(f"tool:{t.program}", t) for t in programs.TOOL_NAMES]
    out += [(f"equivalent:{e.forms[0]}", e) for e in programs.EQUIVALENTS]
    out += [(f"path-noun:{n.words[0]}", n) for n in nouns.PATH_NOUNS]
    out += [(f"content:{n.words[0]}", n) for n in nouns.CONTENT_NOUNS]
    out += [(f"step-verb:{v.step}", v) for v in steps.STEP_VERBS]
    out += [(f"step-moment:{m.then}", m) for m in steps.STEP_MOMENTS]
    out += [(f"work-state:{w.phrases[0]}", w) for w in markers.WORK_STATES]
    out += [(f"confinement:{c.phrases[0]}", c) for c in markers.CONFINEMENTS]
    out += [(f"nominal:{n.phrases[0]}", n) for n in markers.NOMINAL_ACTIONS]
    out += [(f"condition:{c.phrases[0]}", c) for c in markers.CONDITIONS if c.examples] + [
        (f"condition-list:{c.phrases[0]}", c) for c in markers.CONDITIONS if not c.examples]
    out += [(f"cjk-{table}:{e.name}", e) for table, entries in cjk.TABLES + (("heading", cjk.HEADINGS),) for e in entries]
    out += [(f"european:{g.name}", g) for g in european.GLOSSES]
    return out


def all_examples() -> list[tuple[str, Example]]:
    out = [(name, example) for name, entry in entries() for example in getattr(entry, "examples", ())]
    out += [("self-reference", e) for e in nouns.SELF_EXAMPLES]
    out += [("file-family", e) for e in nouns.FILE_FAMILY_EXAMPLES]
    out += [("tool-config", e) for e in nouns.TOOL_CONFIG_EXAMPLES]
    out += [("disclosure", e) for e in nouns.DISCLOSURE_EXAMPLES]
    out += [("attribution-section", e) for e in nouns.SECTION_EXAMPLES]
    out += [("commit-convention", e) for e in nouns.COMMIT_CONVENTION_EXAMPLES]
    out += [("hooks", e) for e in nouns.HOOK_EXAMPLES]
    out += [("work-branch", e) for e in nouns.WORK_BRANCH_EXAMPLES]
    out += [("push-scope", e) for e in markers.PUSH_SCOPE_EXAMPLES]
    out += [("file-extension", e) for e in nouns.FILE_EXTENSION_EXAMPLES]
    out += [("kept-noun", e) for e in nouns.KEPT_NOUN_EXAMPLES]
    out += [("maker", e) for e in markers.MAKER_EXAMPLES]
    out += [("version-control", e) for e in markers.VERSION_CONTROL_EXAMPLES]
    out += [("branch-names", e) for e in nouns.BRANCH_EXAMPLES]
    out += [("shape-template", e) for e in shapes.TEMPLATE_EXAMPLES]
    out += [("shape-prefix", e) for e in shapes.PREFIX_EXAMPLES]
    out += [("shape-scope", e) for e in shapes.SCOPE_EXAMPLES]
    out += [("shape-length", e) for e in shapes.LENGTH_EXAMPLES]
    out += [("shape-emoji", e) for e in shapes.EMOJI_EXAMPLES]
    out += [("shape-period", e) for e in shapes.PERIOD_EXAMPLES]
    out += [("shape-mood", e) for e in shapes.MOOD_EXAMPLES]
    out += [("shape-reference", e) for e in shapes.REFERENCE_EXAMPLES]
    out += [("shape-dash", e) for e in shapes.DASH_EXAMPLES]
    out += [("shape-unstarts", e) for e in shapes.UNSTARTS_EXAMPLES]
    out += [("sign-off", e) for e in shapes.SIGNOFF_EXAMPLES]
    out += [("habit-options", e) for e in programs.HABIT_EXAMPLES]
    out += [("published", e) for e in markers.PUBLISHED_EXAMPLES]
    out += [("no-action", e) for e in cues.NO_ACTION_EXAMPLES]
    out += [("file-title", e) for e in cues.FILE_TITLE_EXAMPLES]
    out += [("substitution", e) for e in markers.SUBSTITUTION_EXAMPLES]
    out += [("means", e) for e in markers.MEANS_EXAMPLES]
    out += [("passive", e) for e in markers.PASSIVE_EXAMPLES]
    out += [("aside", e) for e in markers.ADVERB_EXAMPLES]
    out += [("confine", e) for e in markers.CONFINE_EXAMPLES]
    out += [("no-fragment", e) for e in markers.NO_FRAGMENT_EXAMPLES]
    out += [("stated-not-done", e) for e in markers.STATED_NOT_DONE_EXAMPLES]
    out += [("narrowing-relative", e) for e in markers.NARROWING_RELATIVE_EXAMPLES]
    out += [("ignore", e) for e in markers.IGNORE_EXAMPLES]
    out += [("ordering", e) for e in markers.ORDERING_EXAMPLES]
    out += [("workflow-title", e) for e in markers.WORKFLOW_TITLE_EXAMPLES]
    out += [("workflow-chain", e) for e in markers.CHAIN_EXAMPLES]
    out += [("same-command", e) for e in markers.SAME_COMMAND_EXAMPLES]
    out += [("task-done", e) for e in markers.DONE_EXAMPLES]
    out += [("task-verb", e) for e in markers.TASK_VERB_EXAMPLES]
    out += [("after-change", e) for e in markers.CHANGE_EXAMPLES]
    out += [("when-to-run", e) for e in markers.WHEN_TO_RUN_EXAMPLES]
    out += [("qualifier", e) for e in markers.QUALIFIERS_EXAMPLES]
    out += [("alternative-aside", e) for e in markers.ALTERNATIVE_ASIDE_EXAMPLES]
    out += [("situation-intro", e) for e in markers.SITUATION_INTRO_EXAMPLES]
    out += [("long-running", e) for e in markers.LONG_RUNNING_EXAMPLES]
    out += [("state-changing", e) for e in markers.STATE_CHANGING_EXAMPLES]
    out += [("whole-action", e) for e in markers.WHOLE_ACTION_EXAMPLES]
    out += [("pr-base", e) for e in markers.PR_BASE_EXAMPLES]
    out += [("push-remote", e) for e in markers.REMOTE_EXAMPLES]
    out += [("host-qualifier", e) for e in markers.HOST_QUALIFIER_EXAMPLES]
    out += [("evasion-purpose", e) for e in markers.EVASION_PURPOSE_EXAMPLES]
    out += [("on-your-own", e) for e in markers.ON_YOUR_OWN_EXAMPLES]
    out += [("every-file", e) for e in markers.EVERY_FILE_EXAMPLES]
    out += [("wrapper-runner", e) for e in programs.WRAPPER_EXAMPLES]
    out += [("own-runner", e) for e in programs.OWN_RUNNER_EXAMPLES]
    out += [("option-alias", e) for e in programs.OPTION_ALIAS_EXAMPLES]
    out += [("script-shorthand", e) for e in programs.SCRIPT_SHORTHAND_EXAMPLES]
    out += [("split-command", e) for e in programs.SPLIT_COMMAND_EXAMPLES]
    out += [("verb-program", e) for e in programs.VERB_PROGRAM_EXAMPLES]
    out += [("root", e) for e in markers.ROOT_EXAMPLES]
    out += [("already-running", e) for e in markers.ALREADY_RUNNING_EXAMPLES]
    out += [("named-directory", e) for e in markers.NAMED_DIRECTORY_EXAMPLES]
    out += [("elided-verb", e) for e in markers.ELIDED_EXAMPLES]
    out += [("placement", e) for e in markers.PLACEMENT_EXAMPLES]
    out += [("whole-task", e) for e in markers.WHOLE_EXAMPLES]
    out += [("system-installer", e) for e in programs.SYSTEM_INSTALLER_EXAMPLES]
    out += [("rival-tools", e) for e in programs.RIVAL_EXAMPLES]
    out += [("stated-tool", e) for e in programs.STATED_TOOL_EXAMPLES]
    out += [("implied-writes", e) for e in categories.IMPLIED_WRITE_EXAMPLES]
    out += [("step-file", e) for e in steps.STEP_FILE_EXAMPLES]
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ⏎ ")


def _examples(items: tuple[Example, ...]) -> str:
    shown = []
    for example in items[:3]:
        result = "; ".join(example.checks) if example.checks else "nothing"
        shown.append(f"{_cell(example.text.strip())} → {_cell(result)}")
    return "<br>".join(shown)


def _prose_examples(items: tuple[Example, ...]) -> str:
    """The first examples of a table, for a paragraph rather than a cell."""
    return "For example: " + _examples(items).replace("<br>", "; ") + "."


def markdown() -> str:
    lines = ["<!-- lexicon:begin (generated from guidance/policy/lexicon; do not edit by hand) -->", ""]
    lines += ["### Cues", "", "| Cue | Force | Words | Examples |", "|---|---|---|---|"]
    for cue in cues.CUES:
        force = f"{cue.modality} (hard)" if cue.hard else cue.modality
        lines.append(f"| {cue.name} | {force} | {_cell(', '.join(cue.phrases))} | {_examples(cue.examples)} |")
    lines += ["", "Headings that give their section a force:", "", "| Heading | Force | Words |", "|---|---|---|"]
    for cue in cues.HEADING_CUES:
        lines.append(f"| {cue.name} | {cue.modality} | {_cell(', '.join(cue.phrases))} |")
    lines += ["", "Labels that give what follows them their force (the rest of the item, the list below, a table row or "
              "column):", "", "| Label | Force | Words | Examples |", "|---|---|---|---|"]
    for cue in cues.LABEL_CUES:
        lines.append(f"| {cue.name} | {cue.modality} | {_cell(', '.join(cue.phrases))} | {_examples(cue.examples)} |")
    lines += ["", "Titles that name files under a force (a heading, a label or a list's intro; a place noun: "
              + ", ".join(cues.FILE_PLACES) + "; its items are paths, protected from edits unless the title names "
              "another verb):", "", "| Title | Force | Words before the place noun | Examples |", "|---|---|---|---|"]
    for cue in cues.FILE_TITLES:
        lines.append(f"| {cue.name} | {cue.modality} | {_cell(', '.join(cue.phrases))} | {_examples(cue.examples)} |")
    lines.append(f"| place noun, subject, cue, verb | the cue's | — | {_examples(cues.FILE_TITLE_EXAMPLES)} |")
    lines += ["", "\"No\" opening a clause before a git action or a lone command is a ban: "
              + _examples(cues.NO_ACTION_EXAMPLES).replace("<br>", "; ") + "."]
    lines += ["", "### Actions", "", "| Action | Kind | Words | Examples |", "|---|---|---|---|"]
    for action in actions.ACTIONS:
        lines.append(f"| {action.name} | {action.kind} | {_cell(', '.join(action.words))} | {_examples(action.examples)} |")
    lines += ["", "A verb the table does not know, whose whole object is a path written out (a directory, a file, a glob) "
              "under a ban or an ask, is read as a change to that path: asked, never denied, since the reading is a "
              "guess. These verbs stay out of that guess (they turn the rule around, or leave the path as it is):", "",
              "| Verbs | Words | Examples |", "|---|---|---|"]
    for unchanged in actions.UNCHANGED:
        lines.append(f"| {unchanged.name} | {_cell(', '.join(unchanged.words))} | {_examples(unchanged.examples)} |")
    lines += ["", "### Categories of commands", "", "| Category | Named by | Commands | Package scripts |", "|---|---|---|---|"]
    for category in categories.CATEGORIES:
        lines.append(f"| {category.name} | {_cell(', '.join(category.words))} | {_cell(', '.join(category.commands))} | "
                     f"{', '.join(category.scripts)} |")
    lines += ["", "### Things named in words", "", "| Thing | Words | Commands per verb |", "|---|---|---|"]
    for thing in things.THINGS:
        per_verb = "; ".join(f"{verb}: {', '.join(commands)}" for verb, commands in thing.commands.items())
        lines.append(f"| {thing.name} | {_cell(', '.join(thing.words))} | {_cell(per_verb)} |")
    lines += ["", "Files commands write without naming them:", "", "| File | Commands |", "|---|---|"]
    for glob, commands in categories.IMPLIED_WRITES:
        lines.append(f"| `{glob}` | {_cell(', '.join(commands))} |")
    lines += ["", "### Programs", "", f"Known programs (a bare word counts as one): {', '.join(sorted(programs.KNOWN_PROGRAMS))}.", "",
              "| Tool name | Program |", "|---|---|"]
    for tool in programs.TOOL_NAMES:
        lines.append(f"| {', '.join(tool.names)} | `{tool.program}` |")
    lines += ["", f"Runners a document may run a banned program under (the ban leaves that way alone): "
              f"{', '.join(sorted(programs.WRAPPER_RUNNERS))}."]
    lines += ["", "Container launchers (a ban qualified by the host, \"never run `npm` on the host\", leaves a command run "
              f"through them alone): {', '.join(programs.CONTAINER_LAUNCHERS)}."]
    lines += ["", "Subcommands a text may write as a word after the program in backticks (\"the `hg` push command\" bans "
              f"`hg push` only): {', '.join(sorted(programs.SUBCOMMAND_WORDS))}."]
    lines += ["", "Programs named by English verbs (where the rule's verb stands, the word is the verb unless a flag, "
              f"a task or a subcommand follows: \"Don't mix tabs and spaces\"): {', '.join(sorted(programs.VERB_PROGRAMS))}."]
    lines += ["", "A tool's own runners (a rule preferring the tool leaves programs run that way alone): "
              + "; ".join(f"`{tool}`: {', '.join(f'`{r}`' for r in runners)}" for tool, runners in programs.OWN_RUNNERS.items()) + "."]
    lines += ["", "Tools of one job, of which a project uses one (a text naming one, \"use pnpm\", \"Dependencies are "
              "managed with Poetry\", \"uv is used for package management\", warns on the others): "
              + "; ".join(" / ".join(f"`{t}`" for t in family) for family in programs.RIVALS) + ". The project's own "
              "launchers do their tool's job: " + ", ".join(f"`./{w}` ({t})" for w, t in programs.PROJECT_LAUNCHERS.items())
              + ". A statement's participles: " + ", ".join(sorted(programs.STATED_PARTICIPLES)) + "; before the tool: "
              + ", ".join(sorted(programs.STATED_PREPOSITIONS)) + "; nouns that name the job: "
              + ", ".join(sorted(programs.JOB_NOUNS)) + "."]
    lines += ["", "Equivalent commands (a check on the first covers the others):", ""]
    for eq in programs.EQUIVALENTS:
        lines.append("- " + " = ".join(f"`{f}`" for f in eq.forms))
    lines += ["", "Package scripts run without `run` (a rule on `pnpm run X` covers `pnpm X` and the other way round, "
              "unless X is one of the manager's own commands): " + ", ".join(f"`{pm}`" for pm in programs.SCRIPT_SHORTHANDS) + "."]
    lines += ["", "Option spellings (a rule written with any one covers the others):", ""]
    for prefix, option, aliases in programs.OPTION_ALIASES:
        if aliases:
            lines.append(f"- `{prefix}`: `{option}` = " + " = ".join(f"`{a}`" for a in aliases))
    lines += ["", "### Nouns", "", "| Noun | Files |", "|---|---|"]
    for noun in nouns.PATH_NOUNS:
        where = "where such files usually are (asks at most): " if noun.conventional else ""
        lines.append(f"| {_cell(noun.shown or ', '.join(noun.words))} | {where}{', '.join(f'`{g}`' for g in noun.globs)} |")
    lines += ["", "A file that stands for its family: " + "; ".join(
        f"`{stem}` covers {', '.join(f'`{m}`' for m in members)}" for stem, members in nouns.FILE_FAMILIES) + "."]
    lines += ["", f"The policy file itself: {', '.join(nouns.SELF_NOUNS)}.", "", "| Message content | Phrases |", "|---|---|"]
    for content in nouns.CONTENT_NOUNS:
        lines.append(f"| {_cell(content.shown or ', '.join(content.words))} | {_cell(', '.join(content.phrases))} |")
    lines += ["", "The git hooks (they run inside `git commit` and `git push`: a rule that they run bans skipping them): "
              + ", ".join(nouns.HOOK_NOUNS) + ".", "",
              "Branches the work belongs on (a rule to work, create or commit on one warns on commits to "
              + " and ".join(f"`{b}`" for b in nouns.DEFAULT_BRANCHES) + ", a rule to push to one on pushes there): "
              + ", ".join(nouns.WORK_BRANCH_NOUNS) + ".", "",
              "Endings that name a kind of file when written alone (`.pem`, or PEM in a list after a kind of file, is "
              "`*.pem`; any other dotted name is the file of that name): " + ", ".join(sorted(nouns.FILE_EXTENSIONS)) + ". "
              + _prose_examples(nouns.FILE_EXTENSION_EXAMPLES), "",
              "Things a project keeps as files, named by what they are (placed by a directory under a verb that "
              "changes, reads or commits what exists, \"the specs in `spec/`\", they are the files there; a verb "
              "that makes something new keeps the directory a destination): " + ", ".join(sorted(nouns.KEPT_NOUNS))
              + ". " + _prose_examples(nouns.KEPT_NOUN_EXAMPLES), "",
              "| Credentials | Files | Variables |", "|---|---|---|"]
    for credential in nouns.CREDENTIALS:
        lines.append(f"| {_cell(', '.join(credential.words))} | {', '.join(credential.files)} | {', '.join(credential.variables)} |")
    lines += ["", "### Markers", "", "| Condition | Decided by | Phrases |", "|---|---|---|"]
    for cond in markers.CONDITIONS:
        lines.append(f"| {cond.phrases[0]} | {'the user (ask)' if cond.kind == 'permission' else 'the agent (warn)'} | "
                     f"{_cell(', '.join(cond.phrases))} |")
    lines += ["", "Pushes limited to some branches (\"only push to `claude/*`\", a push ban with the branches it spares "
              "after " + ", ".join(f'"{w}"' for w in markers.SPARING_WORDS) + "): a push that updates another branch is "
              "stopped (the branch checked out, for a bare `git push`, warns). " + _prose_examples(markers.PUSH_SCOPE_EXAMPLES)]
    lines += ["", "Adding files to " + ", ".join(f'"{w}"' for w in markers.VERSION_CONTROL_PLACES) + " is staging them, "
              "and so are \"no `*.log` files in commits\" and \"keep `.env` out of git\" a ban on staging them. "
              + _prose_examples(markers.VERSION_CONTROL_EXAMPLES)]
    lines += ["", "What makes files, after \"by\" or \"from\" and one of " + ", ".join(markers.MAKER_PARTICIPLES)
              + ", is never what a later \"them\" means; a ban on changing with no object is about the one path named "
              "just before it (asked), and \"here\" under a heading that is a path is that path. "
              + _prose_examples(markers.MAKER_EXAMPLES)]
    lines += ["", "Confinements (changes may reach only the paths after them: a change to any other path of the project "
              "asks, or warns when the text advises; reads and temporary files stay free; \"only edit files in `src/`\" "
              "and \"don't touch anything outside `lib/`\" mean the same):", "",
              "| Words | Verdict | Examples |", "|---|---|---|"]
    for confinement in markers.CONFINEMENTS:
        lines.append(f"| {_cell(confinement.shown)} | {'ask' if confinement.modality == 'only' else 'warn'} | "
                     f"{_examples(confinement.examples)} |")
    lines.append(f"| only / outside + a change | the cue's (deny asks) | {_examples(markers.CONFINE_EXAMPLES)} |")
    lines += ["", "Verbless fragments after \"no\" (no cue word; the verb is read from the noun): a noun for an action "
              "on the paths or commands named is that action's ban (a verb after the noun makes a statement: "
              + ", ".join(markers.FINITE_AFTER_NO) + "):", "", "| Verb | Nouns | Examples |", "|---|---|---|"]
    for nominal in markers.NOMINAL_ACTIONS:
        lines.append(f"| {nominal.verb} | {_cell(', '.join(nominal.phrases))} | {_examples(nominal.examples)} |")
    lines += ["", "A thing commands create (branches, worktrees, releases, ...) or a category of commands that act on the "
              "world (" + ", ".join(markers.MADE_CATEGORIES) + ") after \"no\", ending the clause or followed by its "
              "condition: asked with a condition, a warning without one. "
              + _examples(markers.NO_FRAGMENT_EXAMPLES).replace("<br>", "; ") + "."]
    lines += ["", f"Paths to leave out (a warning on reads and searches, never a ban): {', '.join(markers.IGNORE_VERBS)} "
              f"a path; {', '.join(markers.SEARCH_SKIP_VERBS)} a path {' / '.join(markers.SEARCH_CONTEXTS)}; a title "
              f"with a place noun and {' / '.join(markers.IGNORE_TITLE_WORDS)} over a list of paths. Examples: "
              + _examples(markers.IGNORE_EXAMPLES).replace("<br>", "; ") + "."]
    lines += ["", f"Substitution markers: {', '.join(m for m, _ in markers.SUBSTITUTIONS)}.",
              "Bans in the passive (the subject's paths, or the list after the intro): "
              + ", ".join(f"be {p} ({a})" for p, a in markers.PASSIVE_PARTICIPLES.items()) + ".",
              "A listed command narrowed by a relative clause (" + ", ".join(markers.NARROWING_RELATIVES)
              + "): only some of its calls are meant, a warning. "
              + _examples(markers.NARROWING_RELATIVE_EXAMPLES).replace("<br>", "; ") + ".",
              "The same stated without a cue word (\"is not\" / \"are never\" + " + ", ".join(markers.STATED_NOT_DONE)
              + "; not when \"by\" names who does it): the project's practice, a warning. "
              + _examples(markers.STATED_NOT_DONE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Ordering markers: {', '.join(markers.ORDERING)}.",
              "Steps that are tool uses: a file to read ("
              + ", ".join(next(v.words for v in steps.STEP_VERBS if v.step == "read")) + ") or to update ("
              + ", ".join(next(v.words for v in steps.STEP_VERBS if v.step == "edit"))
              + ") before a git action or command after \"before\", before edits (" + ", ".join(
                  next(m.phrases for m in steps.STEP_MOMENTS if m.then == "edit")[:12])
              + ", ...: of the paths that follow, any file without), or at the start of the work (\"first\", \"at the "
              "start of each session\", ...: the session's first edits, a warning); an update after a change of named "
              "files (\"When you change `A`, update `B`\") is owed before the next commit. Files by their usual name: "
              + ", ".join(f"{words[0]} ({' '.join(globs)})" for words, globs in steps.STEP_FILES) + ". Examples: "
              + _examples(next(v.examples for v in steps.STEP_VERBS if v.step == "read")).replace("<br>", "; ") + "; "
              + _examples(next(v.examples for v in steps.STEP_VERBS if v.step == "edit")).replace("<br>", "; ") + ".",
              "Headings of a checklist or workflow gone through before a git action (their steps' commands run first): "
              + ", ".join(f"{title} ({then})" for title, then in markers.WORKFLOW_TITLES) + ".",
              f"A workflow on one line, its steps joined by {' '.join(markers.CHAIN_ARROWS)} or numbered \"2)\": the commands "
              "of the steps before a git action run before it (a warning unless the line says must). Examples: "
              + _examples(markers.CHAIN_EXAMPLES).replace("<br>", "; ") + ".",
              f"Two commands a sentence joins as one ({' '.join(markers.SAME_COMMAND_LINKS)}, parentheses allowed; not "
              "items of a longer list): either satisfies a step owed before an action, as a script run through its "
              "interpreter (`python3 tools/lint.py`) or a module through `python -m` does. Examples: "
              + _examples(markers.SAME_COMMAND_EXAMPLES).replace("<br>", "; ") + ".",
              f"Task verbs that order their task when the work is all they take "
              f"({', '.join(f'{v} ({c})' for v, c in markers.TASK_VERB_CATEGORIES.items())}; the work: "
              f"{', '.join(markers.TASK_VERB_OBJECTS)}). Examples: "
              + _examples(markers.TASK_VERB_EXAMPLES).replace("<br>", "; ") + ".",
              f"The end of the work in other words: a claim ({', '.join(markers.DONE_CLAIMS)}) and a state "
              f"({', '.join(markers.DONE_STATES)}); an ending ({', '.join(markers.DONE_ENDS)}) of the work "
              f"({', '.join(markers.DONE_WORK)}) or of nothing. Examples: "
              + _examples(markers.DONE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Orderings tied to changes ({' / '.join(markers.CHANGE_TRIGGERS)} and a change word: "
              f"{', '.join(markers.CHANGE_WORDS)}; or finishing work: {', '.join(markers.TASK_DONE)}): the command runs after "
              "the last change of the files named (paths, file nouns, languages: "
              + ", ".join(f"{words[0]} ({' '.join(globs)})" for words, globs in markers.LANGUAGE_FILES)
              + "; another noun: paths holding it, a warning; none: any file, for checks only) before the next commit. "
              "Examples: " + _examples(markers.CHANGE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Commands after any change that are orders (their words name a check): {', '.join(markers.CHECK_WORDS)}. "
              f"The work declared done (\"before ...\": the next commit after the last change, a warning): "
              f"{', '.join(markers.DONE_MOMENTS)}.",
              f"Headings that say when a command is run (each item a moment of it, a warning): "
              f"{', '.join(markers.WHEN_TO_RUN_TITLES)}. Examples: "
              + _examples(markers.WHEN_TO_RUN_EXAMPLES).replace("<br>", "; ") + ".",
              f"Narrowing qualifiers after a command: {', '.join(markers.QUALIFIERS)}.",
              f"Commands that keep running, never a step before an action (their last word): {', '.join(markers.LONG_RUNNING)}. "
              "Examples: " + _examples(markers.LONG_RUNNING_EXAMPLES).replace("<br>", "; ") + ".",
              f"Words that narrow a ban on a program the effect model knows to its commands that change something "
              f"(before the program, or after it and {', '.join(markers.STATE_CHANGING_NOUNS)}): "
              f"{', '.join(markers.STATE_CHANGING)}. Examples: "
              + _examples(markers.STATE_CHANGING_EXAMPLES).replace("<br>", "; ") + ".",
              f"A list's introduction opening with {', '.join(markers.SITUATION_INTROS)} sets a situation no tool call "
              "shows: its items' bans warn (not when it is an action the hook sees or names a path). Examples: "
              + _examples(markers.SITUATION_INTRO_EXAMPLES).replace("<br>", "; ") + ".",
              f"Asides in parentheses that name the alternative, not more objects (first word, or 'instead' in it): "
              f"{', '.join(markers.ALTERNATIVE_ASIDES)}. Examples: "
              + _examples(markers.ALTERNATIVE_ASIDE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Qualifiers that do not narrow (where commands run anyway): {', '.join(markers.HOST_QUALIFIERS)}.",
              f"Purposes that say what the banned flag does, so they do not narrow (\"to\" + one of): "
              f"{', '.join(markers.EVASION_PURPOSES)}. Examples: "
              + _examples(markers.EVASION_PURPOSE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Words that do not narrow: {', '.join(markers.ADVERBS)}; between commas after a cue they are an aside. "
              "Examples: " + _examples(markers.ADVERB_EXAMPLES).replace("<br>", "; ") + ".",
              f"Example markers (what follows is never banned): {', '.join(markers.EXAMPLE_MARKERS)}.",
              f"Pronouns: {', '.join(markers.PRONOUNS)}; places: {', '.join(markers.DEICTICS)}.",
              f"Doing it on one's own (asks, wherever it stands): {', '.join(markers.ON_YOUR_OWN)}.",
              "Every file of the project, as the object of a change a person must approve first (\"don't modify files "
              "unless asked\": every write to the project asks; deleting them asks on "
              f"{', '.join(f'`{c}`' for c in markers.DELETE_COMMANDS)}; a plain ban stays advisory): "
              f"{', '.join(markers.EVERY_FILE)}. Examples: " + _examples(markers.EVERY_FILE_EXAMPLES).replace("<br>", "; ") + ".",
              f"Published commits (a rewrite of them is banned once the session pushed, warned before): "
              f"{', '.join(markers.PUBLISHED)}.", ""]
    lines += ["The state of the work a ban on committing or pushing names (with one of "
              f"{', '.join(markers.WORK_NOUNS)}): the task run first, as a warning, or no check when only the agent can "
              "judge it:", "", "| Task | Words | Examples |", "|---|---|---|"]
    for state in markers.WORK_STATES:
        lines.append(f"| {state.category or '(the agent judges)'} | {_cell(', '.join(state.phrases))} | "
                     f"{_examples(state.examples)} |")
    lines.append("")
    lines += _shape_table()
    lines += _cjk_tables()
    lines += _european_table()
    lines += ["<!-- lexicon:end -->", ""]
    return "\n".join(lines)


def _shape_table() -> list[str]:
    """lexicon/shapes.py: how the shape of commit messages and PR titles is written."""
    lines = ["The shape of commit messages and PR titles (judged on the text the command line holds: `git commit -m`, "
             "`gh pr create --title`; an editor or a `-F` file is never judged):", "",
             "| Form | Words | Examples |", "|---|---|---|"]
    rows = (("template (a scope the template shows warns)", ", ".join(shapes.PLACEHOLDER_WORDS), shapes.TEMPLATE_EXAMPLES),
            ("prefixes (warns)", "prefix, start with, begin with", shapes.PREFIX_EXAMPLES),
            ("a scope required (not with: " + ", ".join(shapes.SCOPE_OPTIONAL) + ")", "scope, scopes", shapes.SCOPE_EXAMPLES),
            ("length of the first line", ", ".join(shapes.SUBJECT_NOUNS) + "; " + ", ".join(shapes.LENGTH_UNITS),
             shapes.LENGTH_EXAMPLES),
            ("no emoji", ", ".join(shapes.EMOJI_WORDS + shapes.NO_WORDS), shapes.EMOJI_EXAMPLES),
            ("no period ending the first line", "period, full stop; end, ending, trailing", shapes.PERIOD_EXAMPLES),
            ("the imperative mood (a first verb in the past tense warns)", ", ".join(shapes.MOOD_WORDS + shapes.PAST_WORDS),
             shapes.MOOD_EXAMPLES),
            ("an issue reference (warns)", ", ".join(shapes.REFERENCE_VERBS) + "; " + ", ".join(shapes.ISSUE_WORDS),
             shapes.REFERENCE_EXAMPLES),
            ("no em or en dashes", ", ".join(n for names, _ in shapes.DASH_WORDS for n in names), shapes.DASH_EXAMPLES),
            ("a first line that must not begin with a text", "begin with, start with, prefix (after a ban)",
             shapes.UNSTARTS_EXAMPLES),
            ("sign-off (`git commit -s`)", ", ".join(shapes.SIGNOFF_WORDS), shapes.SIGNOFF_EXAMPLES))
    for form, words, examples in rows:
        lines.append(f"| {form} | {_cell(words)} | {_examples(examples)} |")
    return lines + [""]


_CJK_TITLES = {"cue": "Cues", "condition": "Conditions", "neutral": "Words that hold another table's word without its meaning",
               "particle": "Particles and copulas (no meaning for a rule; other unknown words make a description)",
               "action": "Actions (verbs and the nouns that stand for them)", "noun": "Nouns", "place": "Places and markers",
               "substitution": "Substitutions (the banned side)", "ordering": "Orderings", "heading": "Headings"}


def _cjk_tables() -> list[str]:
    """lexicon/cjk.py, one table per kind of word: entry, language, meaning, words, examples."""
    lines = ["### Chinese, Japanese and Korean", ""]
    for table, entries in cjk.TABLES + (("heading", cjk.HEADINGS),):
        lines += [f"{_CJK_TITLES[table]}:", "", "| Entry | Language | Meaning | Words | Examples |", "|---|---|---|---|---|"]
        for entry in entries:
            meaning = entry.meaning + (" (weak)" if entry.weak else "")
            lines.append(f"| {entry.name} | {entry.lang} | {meaning or '-'} | {_cell(', '.join(entry.words))} | "
                         f"{_examples(entry.examples)} |")
        lines.append("")
    nouns_actions = ", ".join(f"{noun} → {action}" for noun, action in cjk.NOUN_ACTIONS.items())
    lines += [f"Nouns that stand for an action when the segment has no verb of their kind: {nouns_actions}.", ""]
    return lines


def _european_table() -> list[str]:
    """lexicon/european.py: the words of German, French, Spanish, Portuguese and Italian and the English they read as."""
    lines = ["### German, French, Spanish, Portuguese and Italian", "",
             "A block whose words are more of one of these languages than of English is glossed into English and read "
             "like English (a German verb at the end of its clause is read where English puts it).", "",
             "| Entry | Reads as | Kind | Words | Examples |", "|---|---|---|---|---|"]
    for gloss in european.GLOSSES:
        words = "; ".join(f"{lang}: {', '.join(phrases)}" for lang, phrases in gloss.words.items())
        lines.append(f"| {gloss.name} | {gloss.english or '(dropped)'} | {gloss.kind or '-'} | {_cell(words)} | "
                     f"{_examples(gloss.examples)} |")
    return lines + [""]


BEGIN = "<!-- lexicon:begin"
END = "<!-- lexicon:end -->"


def embedded(document: str) -> str:
    """The generated part of a document (from the begin marker through the end marker's line)."""
    start = document.find(BEGIN)
    end = document.find(END)
    if start == -1 or end == -1:
        return ""
    return document[start : end + len(END)] + "\n"


def main(argv: list[str]) -> int:
    """Rewrite the generated part of the document named in `argv` (docs/policy-grammar.md)."""
    if len(argv) != 1:
        print("usage: python -m cf_guidance.policy.lexicon.docs docs/policy-grammar.md")
        return 2
    with open(argv[0], encoding="utf-8") as handle:
        document = handle.read()
    old = embedded(document)
    if not old:
        print(f"{argv[0]}: no {BEGIN} ... {END} markers; add them where the tables belong")
        return 1
    with open(argv[0], "w", encoding="utf-8") as handle:
        handle.write(document.replace(old, markdown()))
    return 0


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
