"""Things: what a rule names in words ("make git commits", "create a branch", "comment on the PR",
"ブランチ作成", "브랜치 생성") and the commands that do each thing to them.

A rule often names the action as a verb and a noun instead of a command. `THINGS` lists, per
thing, the English words that name it (the Chinese, Japanese and Korean ones are the nouns
`thing:NAME` of lexicon/cjk.py) and, per kind of verb, the command patterns that do it (`<name>`
is one argument). The verb kinds come from `VERB_KINDS`: the action names of guidance.policy.lexicon.actions and the
words of the verb as written ("rename", "switch"). A verb the thing has no commands for leaves
the rule advisory ("never discuss the issue": no command discusses).

A thing's commands are what the rule means only when nothing more precise was named: a
backticked command, a path or a branch in the same sentence wins.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Thing:
    name: str
    words: tuple[str, ...]
    #: verb kind -> the commands that do it to the thing
    commands: dict[str, tuple[str, ...]] = field(default_factory=dict)
    examples: tuple[Example, ...] = ()
    #: words one of which the sentence must hold for the thing to be meant ("comments" on a PR or
    #: an issue, not in the code); empty: always
    context: tuple[str, ...] = ()


#: action name (or verb word as written) -> the verb kind of THINGS' commands
VERB_KINDS: dict[str, str] = {
    "create": "create", "open": "create", "add": "create", "make": "create", "commit": "create",
    "delete": "delete", "remove": "delete", "drop": "delete", "prune": "delete",
    "switch": "switch", "checkout": "switch", "check out": "switch",
    "comment": "comment", "reply": "comment", "respond": "comment", "post": "comment", "leave": "comment",
    "merge": "merge", "close": "close", "approve": "approve", "edit": "edit", "rename": "rename", "push": "push",
    "enable": "enable",
}

THINGS: tuple[Thing, ...] = (
    Thing("branch", ("branch", "branches", "a branch", "new branch", "new branches", "a new branch", "feature branch",
                     "feature branches", "git branch", "git branches", "local branches", "remote branches"),
          {"create": ("git checkout -b", "git switch -c", "git branch <name>", "git worktree add"),
           "delete": ("git branch -d", "git branch -D", "git push --delete", "git push origin --delete"),
           "switch": ("git checkout <name>", "git switch <name>"),
           "rename": ("git branch -m", "git branch -M")},
          (ex("- Never create branches", "deny command git checkout -b", exact=False),
           ex("- Do not create new branches without asking", "ask command git checkout -b", exact=False),
           ex("- Never delete remote branches", "deny command git push --delete"),
           ex("- Don't delete branches on the remote", "deny command git push --delete"),
           ex("- Never delete old branches", "warn command git branch -d", exact=False),
           ex("- Do not create a branch prefixed with claude/", "warn command git checkout -b", exact=False),
           ex("- Never work directly on a shared branch"))),
    Thing("auto-merge", ("auto-merge", "automerge", "auto merge", "auto-merging", "auto-merge on pull requests",
                         "auto-merge on prs", "auto-merge on a pr"),
          {"enable": ("gh pr merge --auto",), "create": ("gh pr merge --auto",)},
          (ex("- Never enable auto-merge on pull requests", "deny command gh pr merge --auto"),
           ex("- Do not turn on auto-merge without asking", "ask command gh pr merge --auto"),
           ex("- Auto-merge is enabled by the bot"))),
    Thing("commit", ("commit", "commits", "git commits", "new commits", "a commit", "any commits", "any commit"),
          {"create": ("git commit",)},
          (ex("- Do not make git commits.", "deny command git commit"),
           ex("- Do not make commits unless I tell you to.", "ask command git commit"))),
    Thing("comment", ("comment", "comments", "a comment", "review comments", "pr comments", "issue comments",
                      "github comments", "replies"),
          {"create": ("gh pr comment", "gh issue comment", "gh pr review"),
           "comment": ("gh pr comment", "gh issue comment", "gh pr review")},
          (ex("- When reviewing PRs, do not make comments on the PR.", "deny command gh pr comment", exact=False),
           ex("- Never post comments on issues", "deny command gh issue comment", exact=False),
           ex("- Do not leave comments in the code"),
           ex("- Comments: explain why, and don't just leave comments everywhere")),
          context=("pr", "prs", "pull request", "pull requests", "issue", "issues", "github", "gitlab", "review", "reviews",
                   "mr", "merge request", "discussion", "thread", "gh", "コメント", "评论", "댓글", "코멘트")),
    Thing("pull-request", ("pr", "prs", "the pr", "a pr", "pull request", "pull requests", "the pull request",
                           "a pull request", "merge request", "merge requests"),
          {"create": ("gh pr create", "glab mr create", "hub pull-request", "gt submit"),
           "merge": ("gh pr merge", "glab mr merge"),
           "close": ("gh pr close", "glab mr close"),
           "comment": ("gh pr comment", "gh pr review"),
           "approve": ("gh pr review --approve", "glab mr approve"),
           "edit": ("gh pr edit", "glab mr update")},
          (ex("- Do not comment on the PR", "deny command gh pr comment"),
           ex("- Never approve pull requests", "deny command gh pr review --approve", exact=False),
           ex("- Never close PRs", "deny command gh pr close", exact=False))),
    Thing("issue", ("issue", "issues", "an issue", "new issue", "new issues", "github issue", "github issues",
                    "the issue", "the issues"),
          {"create": ("gh issue create", "glab issue create"),
           "close": ("gh issue close", "glab issue close"),
           "comment": ("gh issue comment",),
           "edit": ("gh issue edit",),
           "delete": ("gh issue delete",)},
          (ex("- Don't open issues on GitHub", "deny command gh issue create", exact=False),
           ex("- Never close issues", "deny command gh issue close", exact=False),
           ex("- Never ignore an issue"))),
    Thing("release", ("release", "releases", "a release", "github release", "github releases", "new release"),
          {"create": ("gh release create", "glab release create"),
           "delete": ("gh release delete",),
           "edit": ("gh release edit",)},
          (ex("- Never create GitHub releases", "deny command gh release create", exact=False),)),
    Thing("stash", ("stash", "stashes", "the stash", "git stash"),
          {"create": ("git stash",), "delete": ("git stash drop", "git stash clear")},
          (ex("- Never drop stashes", "deny command git stash drop", exact=False),)),
    Thing("worktree", ("worktree", "worktrees", "git worktree", "git worktrees"),
          {"create": ("git worktree add",), "delete": ("git worktree remove", "git worktree prune")},
          (ex("- Do not create worktrees", "deny command git worktree add"),)),
    Thing("remote", ("remote", "remotes", "git remote", "git remotes", "the remotes"),
          {"create": ("git remote add",), "rename": ("git remote rename",), "delete": ("git remote remove", "git remote rm"),
           "edit": ("git remote set-url", "git remote rename")},
          (ex("- Never rename remotes", "deny command git remote rename"),)),
)
