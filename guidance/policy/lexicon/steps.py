"""Steps that are tool uses: the file an ordering says to read or to update first.

Real files order reads and edits as often as commands ("Read `docs/architecture.md` before
changing anything in `core/`", "At the start of each session, read `.tasks/TODO.md`", "Update
`CHANGELOG.md` before every commit", "When you change `settings.py`, update `docs/settings.md`").
Counted over 160 real files (the corpus, the study sets and 40 public files): a read step 43
times, an edit step 18 times.

- `STEP_VERBS`: the verbs whose object (a path, or the path after "in" / "to") is the step's
  file, by the kind of step (read, edit).
- `STEP_MOMENTS`: the words that say which tool calls the step comes before: the work of the
  session (its first edit: "at the start of each session"), the work of the document or of the
  section ("first": under a section about one kind of work, that work, which no edit shows: no
  check), or edits ("before changing ...", "when working on `dir/`", scoped to the paths that
  follow them). A git action or a command after "before" is read as for commands (frames.then_at).
- `STEP_FILES`: files a step names by their usual name without a path ("the changelog").

The check is an ordering (kind "sequence") with `step` and `paths`; the gate
(cf_guidance.gates.sequence) sees reads in the session's Read calls and in the files Bash
commands read, edits in its edit entries and the files Bash commands write.
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class StepVerb:
    words: tuple[str, ...]
    #: read | edit
    step: str
    examples: tuple[Example, ...] = ()


STEP_VERBS: tuple[StepVerb, ...] = (
    StepVerb(("read", "reread", "re-read", "review", "consult", "study", "load", "skim", "go through", "look at",
              "look through", "refer to", "familiarize yourself with", "familiarise yourself with", "check"), "read",
             examples=(ex("- Read `docs/architecture.md` before changing anything in `core/`",
                          "warn sequence read docs/architecture.md -> edit core/**"),
                       ex("- Always consult `docs/api.md` before modifying `api/`", "warn sequence read docs/api.md -> edit api/**"),
                       ex("- Read `CONTRIBUTING.md` before opening a pull request",
                          "warn sequence read CONTRIBUTING.md -> gh pr create"),
                       ex("- Read `docs/architecture.md` for background"),
                       ex("- Review the diff before committing"))),
    StepVerb(("update", "edit", "bump", "add", "document", "record", "note", "log", "summarize", "summarise", "write",
              "append", "fill in"), "edit",
             examples=(ex("- Update `CHANGELOG.md` before every commit", "warn sequence edit CHANGELOG.md -> git commit"),
                       ex("- Always add an entry to `CHANGES.md` before pushing", "warn sequence edit CHANGES.md -> git push"),
                       ex("- When you change `api/settings.py`, update `docs/settings.md` to match",
                          "warn sequence edit docs/settings.md -> git commit after api/settings.py"),
                       ex("- Update `CHANGELOG.md` when you release"),
                       ex("- Never update `CHANGELOG.md` before a release is cut"))),
)


@dataclass(frozen=True)
class StepMoment:
    phrases: tuple[str, ...]
    #: session: the session's first edits (any file); start: the same, unless the text is under a
    #: section about one kind of work; edit: the edits of the paths that follow (any file without)
    then: str
    examples: tuple[Example, ...] = ()


def _starts() -> tuple[str, ...]:
    """"at the start of each session", "at the beginning of every conversation", ..."""
    out = []
    for when in ("start", "beginning", "begin"):
        for each in ("each", "every", "a", "the", "any", "a new", "each new", "every new"):
            for what in ("session", "conversation", "task", "cycle", "chat", "work session"):
                out.append(f"at the {when} of {each} {what}")
    return tuple(out)


STEP_MOMENTS: tuple[StepMoment, ...] = (
    StepMoment(_starts() + ("at session start", "every session", "each session", "every new session"), "session",
               examples=(ex("- At the start of each session, read `.tasks/TODO.md`", "warn sequence read .tasks/TODO.md -> edit **"),
                         ex("## Testing\n\n- Read `docs/TESTING.md` at the start of every session",
                            "warn sequence read docs/TESTING.md -> edit **"),
                         ex("- At the start of each session, the agent loads `MEMORY.md`"))),
    StepMoment(("first", "first of all", "before anything else", "before doing anything", "before doing anything else",
                "before starting any work", "before starting work", "before you start", "before starting",
                "before starting a task", "before starting any task", "before any task", "before every task",
                "before each task", "before beginning work", "before beginning any work"), "start",
               examples=(ex("- Read `docs/SPEC.md` first", "warn sequence read docs/SPEC.md -> edit **"),
                         ex("- You MUST read `docs/SPEC.md` before starting any task", "warn sequence read docs/SPEC.md -> edit **"),
                         # under a section about one kind of work, "first" is before that work, which no edit shows
                         ex("# Guide\n\n## Changing the parser\n\nRead these first: `parser/NOTES.md`"),
                         ex("- First, run `npm install`"))),
    StepMoment(("before editing", "before changing", "before modifying", "before touching", "before writing",
                "before making changes", "before making any changes", "before making any change", "before making code changes",
                "before any change", "before any code change", "before any changes", "before code changes",
                "before starting any code change", "before starting a code change", "before working on", "before working in",
                "before implementing", "before coding", "before refactoring", "before adding", "before creating",
                "before updating", "before deleting", "before removing", "before renaming", "before adding or changing",
                "before adding or modifying", "before you add", "before you create", "before you edit", "before you change",
                "before you modify", "before you touch", "before you work on", "when working on", "when working in",
                "when working under", "while working on", "if working on", "working on", "working in", "working under"), "edit",
               examples=(ex("- Before modifying code, read `docs/conventions.md`", "warn sequence read docs/conventions.md -> edit **"),
                         ex("- When working on the CLI (`crates/cli`), read `crates/cli/NOTES.md`",
                            "warn sequence read crates/cli/NOTES.md -> edit crates/cli/**"),
                         ex("- When working under `web/`, read `web/AGENTS.md` first", "warn sequence read web/AGENTS.md -> edit web/**"),
                         ex("- Before editing, save your work"))),
)


#: a file a step names by its usual name ("update the changelog"): (words, globs)
STEP_FILES: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = (
    (("changelog", "change log", "changelog.md"), ("CHANGELOG*",)),
)

STEP_FILE_EXAMPLES: tuple[Example, ...] = (
    ex("- CHANGELOG updates are required before every commit", "deny sequence edit CHANGELOG* -> git commit"),
    ex("- Update the changelog before opening a PR", "warn sequence edit CHANGELOG* -> gh pr create"),
    ex("- The changelog lists every release"),
)
