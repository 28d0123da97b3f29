"""Effects of gh on the Git host: repositories, secrets, keys, gists, pull requests, releases,
workflows, extensions, and `gh api` by method and endpoint (refs, branch protection, rulesets,
environments, deploy keys, secrets, collaborators, webhooks, GraphQL mutations)."""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands.git import shared_branch
from cf_guidance.gates.commands.effects import (
    CHANGE, CONTRIBUTE, CREDENTIAL, DELETE, DESTROY, EXPOSE, GRANT, READ, SEND, SUPPLY, WEAKEN, Entry, Parsed, Table,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis


_GH_OPTIONS = (
    "-R", "--repo", "-t", "--title", "-b", "--body", "-B", "--base", "-H", "--head", "-F", "--body-file", "-l", "--label", "-a",
    "--assignee", "-m", "--milestone", "-r", "--reviewer", "-p", "--project", "-X", "--method", "-f", "--raw-field", "--field",
    "--header", "-q", "--jq", "--template", "-L", "--limit", "-s", "--state", "-A", "--author", "-S", "--search", "--json", "-d",
    "--desc", "-e", "--env", "-o", "--org", "--app", "--visibility", "--repos", "--input", "--hostname", "--cache", "-n", "--notes",
    "--target", "--ref", "-k", "--key", "--source", "--scopes", "--description", "--homepage", "--remote",
)


def _api_method(parsed: Parsed) -> str:
    args = parsed.args
    method = args.value("-X", "--method")
    if method:
        return method[-1].upper()
    if args.value("-f", "-F", "--field", "--raw-field", "--input"):
        return "POST"  # gh api sends fields with POST unless told otherwise
    return "GET"


def _api_endpoint(parsed: Parsed) -> str:
    words = parsed.words
    endpoint = words[1] if len(words) > 1 else ""
    return endpoint.split("?", 1)[0].strip("/").lower()


def _api_fields(parsed: Parsed) -> list[str]:
    return parsed.args.value("-f", "-F", "--field", "--raw-field")


def _api(
    what: str, methods: tuple[str, ...], *parts: str, exact_repo: bool = False, field: str = ""
) -> Callable[[Parsed, Command, ShellAnalysis | None], str]:
    """A test for `gh api`: one of `methods`, an endpoint holding one of `parts` (or exactly
    `repos/OWNER/REPO`), and a field holding `field` when given; the detail says `what` it does."""
    def test(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        method = _api_method(parsed)
        if method not in methods:
            return ""
        endpoint = _api_endpoint(parsed)
        if exact_repo:
            segments = endpoint.split("/")
            if len(segments) != 3 or segments[0] != "repos":
                return ""
        elif parts and not any(part in "/" + endpoint + "/" for part in parts):
            return ""
        if field and not any(field in value.lower().replace(" ", "") for value in _api_fields(parsed)):
            return ""
        return f"gh api -X {method} {endpoint} {what}"
    return test


_DEFAULT_BRANCHES = ("/heads/main/", "/heads/master/", "/heads/trunk/", "/heads/develop/", "/heads/production/", "/heads/release")


def _graphql_mutation(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if _api_endpoint(parsed) == "graphql" and any("mutation" in value for value in _api_fields(parsed)):
        return "gh api graphql runs a mutation"
    return ""


def _graphql_query(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    return "=" if _api_endpoint(parsed) == "graphql" else ""


def _public(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if any(value.lower() == "public" for value in parsed.args.value("--visibility")):
        return "gh repo edit --visibility public publishes the repository to everyone"
    return ""


_ANY_WRITE = ("POST", "PUT", "PATCH", "DELETE")

#: Words of a workflow's name that say it ships or publishes something (run on any branch, it does).
_SHIPPING = ("deploy", "release", "publish", "prod", "rollout", "promote", "ship", "delivery", "cd.", "infra", "terraform", "migrate")


def _feature_run(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    """`gh workflow run ci.yml --ref feature/x`: the checks of a feature branch, which pushing it runs too."""
    refs = parsed.args.value("-r", "--ref")
    workflow = (parsed.words[2] if len(parsed.words) > 2 else "").lower()
    if not refs or not workflow or any(word in workflow for word in _SHIPPING) or workflow.startswith("cd"):
        return ""
    return "=" if all(not shared_branch(ref) and not _version_tag(ref) for ref in refs) else ""


def _version_tag(ref: str) -> bool:
    """`v1.2.0`, `1.2`, `refs/tags/x`: a tag, which releases are cut from."""
    name = ref[10:] if ref.startswith("refs/tags/") else ref
    return ref.startswith("refs/tags/") or name[:1].isdigit() or (name[:1] in "vV" and name[1:2].isdigit())

_GH = Table(
    ("gh",),
    (
        Entry("repo delete", DESTROY, "EFF003", "gh repo delete deletes the repository, its issues, pull requests and wiki",
              block=("gh repo delete org/service --yes", "gh repo delete"), allow=("gh repo view org/service",)),
        Entry("repo edit", EXPOSE, "REP005", test=_public,
              block=("gh repo edit --visibility public --accept-visibility-change-consequences",),
              allow=("gh repo view --json visibility",)),
        Entry("repo create", EXPOSE, "EFF007", "gh repo create --public publishes the code to everyone", flags=("--public",),
              block=("gh repo create my-tool --public --source=. --push",), allow=("gh repo list",)),
        Entry("repo edit|archive|rename|unarchive|sync|create", CHANGE, "EFF001", "gh repo {verb} changes the repository on the host",
              block=("gh repo edit --default-branch develop", "gh repo archive org/old-service --yes", "gh repo create my-tool --private"),
              allow=("gh repo set-default org/service",)),
        Entry("repo deploy-key add", GRANT, "REP005", "gh repo deploy-key add gives a key access to the repository",
              block=("gh repo deploy-key add ./key.pub --allow-write --title ci",), allow=("gh repo deploy-key list",)),
        Entry("repo deploy-key delete", DELETE, "EFF001", "gh repo deploy-key delete removes a deploy key",
              block=("gh repo deploy-key delete 1234",), allow=()),
        Entry("repo view|list|clone|fork|set-default|deploy-key", READ, allow=("gh repo clone org/service", "gh repo fork --clone")),
        Entry("secret set", GRANT, "REP005", "gh secret set creates or replaces a secret that workflows read",
              block=("gh secret set NPM_TOKEN --body \"$NPM_TOKEN\"", "gh secret set DEPLOY_KEY < key.pem"), allow=("gh secret list",)),
        Entry("variable|secret set|delete|remove", CHANGE, "EFF001", "gh {words} changes the repository's Actions settings",
              block=("gh variable set ENVIRONMENT --body staging", "gh secret delete OLD_TOKEN"), allow=("gh variable list",)),
        Entry("ssh-key|gpg-key add", GRANT, "REP005", "gh ssh-key add gives a key access to every repository of the account",
              block=("gh ssh-key add ~/.ssh/id_ed25519.pub --title laptop",), allow=("gh ssh-key list",)),
        Entry("ssh-key|gpg-key delete", DELETE, "EFF001", "gh {words} removes a key from the account",
              block=("gh ssh-key delete 1234 --yes",), allow=()),
        Entry("auth token", CREDENTIAL, "EFF004", "gh auth token prints the account's token",
              block=("gh auth token", "gh auth token | pbcopy"), allow=("gh auth status",)),
        Entry("auth status", CREDENTIAL, "EFF004", "gh auth status --show-token prints the account's token", flags=("-t", "--show-token"),
              block=("gh auth status --show-token",), allow=("gh auth status -h github.com",)),
        Entry("gist create", EXPOSE, "EFF007", "gh gist create --public publishes the files to everyone", flags=("-p", "--public"),
              block=("gh gist create --public notes.md",), allow=("gh gist list",)),
        Entry("gist create", SEND, "EFF006", "gh gist create uploads the files to a gist", verdict=ASK,
              block=("gh gist create debug.log -d 'trace'",), allow=("gh gist view abc123",)),
        Entry("gist edit|delete|rename", CHANGE, "EFF001", "gh gist {verb} changes a gist", block=("gh gist delete abc123",), allow=()),
        Entry("pr merge", WEAKEN, "REP004", "gh pr merge --admin merges past the branch protection rules", flags=("--admin",),
              block=("gh pr merge 42 --admin --squash",), allow=()),
        Entry("pr merge", CHANGE, "EFF001", "gh pr merge changes the base branch others build on",
              block=("gh pr merge 42 --squash --delete-branch", "gh pr merge --auto --rebase"), allow=("gh pr checks 42",)),
        Entry("pr review", CHANGE, "EFF001", "gh pr review --approve approves the pull request as the user", flags=("-a", "--approve"),
              block=("gh pr review 42 --approve",), allow=("gh pr review 42 --comment -b 'looks good'",)),
        Entry("issue delete|transfer", DELETE, "EFF001", "gh issue {verb} removes the issue from the repository",
              block=("gh issue delete 12 --yes",), allow=()),
        Entry("pr|issue", CONTRIBUTE,
              allow=("gh pr create --fill", "gh pr create -t 'Fix retry' -b 'Closes #12'", "gh pr view 42 --comments",
                     "gh pr comment 42 -b 'rebased'", "gh issue create -t bug -b 'steps'", "gh issue list --label bug",
                     "gh pr checkout 42", "gh pr edit 42 --add-label ready", "gh pr close 42")),
        Entry("release create|upload|edit", CHANGE, "EFF001", "gh release publishes a release (and whatever it triggers)",
              block=("gh release create v1.4.0 --generate-notes", "gh release upload v1.4.0 dist/app.tar.gz"),
              allow=("gh release list", "gh release download v1.4.0")),
        Entry("release delete|delete-asset", DELETE, "EFF001", "gh release delete removes a published release",
              block=("gh release delete v1.3.0 --yes",), allow=("gh release view v1.3.0",)),
        Entry("workflow run", CONTRIBUTE, test=_feature_run,
              allow=("gh workflow run ci.yml --ref feature/login-form", "gh workflow run test.yml -r fix/retry -f debug=true")),
        Entry("workflow run|enable|disable", CHANGE, "EFF001", "gh workflow starts or switches a workflow (deploys among them)",
              block=("gh workflow run deploy.yml -f version=1.4.0", "gh workflow run deploy-production.yml", "gh workflow disable ci.yml",
                     "gh workflow run ci.yml --ref main", "gh workflow run release.yml --ref feature/x"),
              allow=("gh workflow list", "gh workflow view ci.yml")),
        Entry("run|cache|label|codespace delete", DELETE, "EFF001", "gh {words} deletes it on the host",
              block=("gh run delete 123456", "gh label delete wontfix --yes"),
              allow=("gh run rerun 123456 --failed", "gh run view 123456 --log-failed", "gh cache list", "gh run watch")),
        Entry("extension install|upgrade", SUPPLY, "SUP001", "gh extension install runs code from a repository", verdict=ASK,
              block=("gh extension install someone/gh-helper",), allow=("gh extension list",)),
        # gh api: what the method does to which endpoint, most specific first
        Entry("api", DESTROY, "EFF003", test=_api("deletes the repository", ("DELETE",), exact_repo=True),
              block=("gh api -X DELETE repos/org/service", "gh api --method DELETE /repos/{owner}/{repo}"), allow=("gh api repos/org/service",)),
        Entry("api", EXPOSE, "REP005", test=_api("makes the repository public", ("PATCH",), exact_repo=True, field="private=false"),
              block=("gh api -X PATCH repos/org/service -F private=false",), allow=()),
        Entry("api", WEAKEN, "REP004", test=_api("removes a protection of branches or environments", ("DELETE",), "/protection/", "/rulesets/", "/required_status_checks/", "/required_pull_request_reviews/", "/environments/"),
              block=("gh api -X DELETE repos/org/service/branches/main/protection", "gh api -X DELETE repos/org/service/rulesets/42"),
              allow=("gh api repos/org/service/branches/main/protection",)),
        Entry("api", WEAKEN, "REP004", test=_api("changes the branch protection, rulesets or environment rules", ("POST", "PUT", "PATCH"), "/protection/", "/rulesets/", "/required_status_checks/",
                                               "/required_pull_request_reviews/", "/environments/", "/actions/permissions/"), verdict=ASK,
              block=("gh api -X PUT repos/org/service/branches/main/protection --input protection.json",
                     "gh api repos/org/service/rulesets -f name=relaxed -f enforcement=disabled",
                     "gh api -X PUT repos/org/service/environments/production -F wait_timer=0"),
              allow=("gh api repos/org/service/rulesets",)),
        Entry("api", GRANT, "EFF008", test=_api("gives administrator rights", _ANY_WRITE[:3], "/collaborators/", "/memberships/", "/members/", "/teams/",
                                              field="admin"), verdict=DENY,
              block=("gh api -X PUT repos/org/service/collaborators/someone -f permission=admin",
                     "gh api -X PUT orgs/acme/memberships/someone -f role=admin"),
              allow=("gh api repos/org/service/collaborators/someone/permission",)),
        Entry("api", GRANT, "REP005", test=_api("gives a key, a person, a webhook or a workflow access", _ANY_WRITE[:3], "/keys/", "/collaborators/", "/hooks/", "/secrets/", "/invitations/",
                                              "/members/", "/teams/", "/installations/"),
              block=("gh api repos/org/service/keys -f title=ci -f key=\"$(cat key.pub)\" -F read_only=false",
                     "gh api -X PUT repos/org/service/collaborators/someone -f permission=push",
                     "gh api repos/org/service/hooks -f name=web -f config[url]=https://x.example/hook",
                     "gh api -X PUT repos/org/service/actions/secrets/TOKEN -f encrypted_value=x -f key_id=1"),
              allow=("gh api repos/org/service/collaborators", "gh api repos/org/service/hooks")),
        Entry("api", DESTROY, "DST018", test=_api("deletes the default branch", ("DELETE",), *_DEFAULT_BRANCHES),
              block=("gh api -X DELETE repos/org/service/git/refs/heads/main",), allow=()),
        Entry("api", DESTROY, "DST012", test=_api("moves the branch without checking it is a fast-forward", ("PATCH",), "/git/refs/", field="force=true"),
              block=("gh api -X PATCH repos/org/service/git/refs/heads/main -f sha=abc123 -F force=true",),
              allow=("gh api -X PATCH repos/org/service/git/refs/heads/feature -f sha=abc123",)),
        Entry("api", DELETE, "DST018", test=_api("deletes a branch or tag", ("DELETE",), "/git/refs/"),
              block=("gh api -X DELETE repos/org/service/git/refs/heads/old-feature",), allow=()),
        Entry("api", CHANGE, "EFF001", test=_api("merges the pull request", ("PUT", "POST"), "/merge/", "/merges/"),
              block=("gh api -X PUT repos/org/service/pulls/42/merge",), allow=("gh api repos/org/service/pulls/42",)),
        Entry("api", CONTRIBUTE, test=_api("", _ANY_WRITE, "/issues/", "/pulls/", "/comments/", "/reviews/", "/git/refs/", "/labels/", "/reactions/"),
              allow=("gh api repos/org/service/issues/12/comments -f body='Fixed in #13'",
                     "gh api -X POST repos/org/service/git/refs -f ref=refs/heads/fix -f sha=abc123")),
        Entry("api", CHANGE, "EFF001", test=_graphql_mutation,
              block=("gh api graphql -f query='mutation { deleteRepository(input: {}) { clientMutationId } }'",),
              allow=("gh api graphql -f query='query { viewer { login } }'",)),
        Entry("api", READ, test=_graphql_query, allow=("gh api graphql -f query='query { viewer { login } }'",)),
        Entry("api", CHANGE, "EFF001", test=_api("changes the repository on the host", _ANY_WRITE),
              block=("gh api -X POST repos/org/service/dispatches -f event_type=deploy", "gh api -X PUT user/starred/org/service"),
              allow=("gh api user", "gh api repos/org/service/pulls --paginate")),
    ),
    options=_GH_OPTIONS,
    context=("-R", "--repo"),
    instead="ask the user to do it on the Git host, or open a pull request that proposes it"
)

TABLES = (_GH,)
