"""The effect model: what a command of a CLI agents use does to the world, kept as data.

Hot path module: standard library only. The tables are Python data in this package, one
module per program or family (git; gh; cloud: aws, gcloud, gsutil, az, eksctl; cluster:
kubectl, helm; infra: terraform, tofu, terragrunt, pulumi, cdk; containers: docker, podman;
data: database and cache clients; npm; python: pip, uv, poetry, twine; languages: cargo, go,
gem, composer; network: ssh, scp, rsync, curl, wget; system: crontab, systemctl, firewalls,
disk tools). A module is imported the first time one of its programs is seen (`_FAMILIES`
says which holds which), so an event pays only for the tables it needs.

A table (`Table`) says how to find a program's subcommand words among its arguments (which
options take a value) and where its target is named (contexts, profiles, namespaces, hosts:
`looks_shared` reads them). Its entries (`Entry`) are tried in order; the first whose words,
flags and test match the command decides its effect:

    READ        only reads                                  -> allow
    LOCAL       changes only this machine                   -> allow (the file gates judge files)
    CONTRIBUTE  ordinary remote work: push a branch, open
                or comment on a pull request                -> allow
    CHANGE      changes something remote: cloud resources,
                a cluster, a registry, the Git host, a server -> ask; deny when shared or production
    DELETE      deletes named remote things                 -> ask; deny when shared or production
    RUN         runs a command on another machine or in a
                container of a cluster                      -> ask; deny when shared or production
    DESTROY     destroys wholesale                          -> deny (ask on a local target)
    EXPOSE      makes something public                      -> deny
    CREDENTIAL  prints a credential                         -> deny when it reaches the transcript,
                                                               a project file or the network; ask
                                                               when a local program takes it
    SEND        sends project data to a new place           -> ask
    GRANT       gives someone access (deploy keys, secrets,
                collaborators, webhooks, roles)             -> ask; an administrator role -> deny
                                                               (the entry's own verdict)
    SUPPLY, EXEC, PERSIST, WEAKEN: local changes other gates own (package sources, config that
                runs commands, autostart, security controls) -> the entry's own verdict

A target is shared or production when a context, profile, namespace, stack, host or resource
name holds the word prod, production, prd or shared (`prod-eu`, `db.prod.internal`), names
kube-system, or the command says --all; it is local when it is this machine (a kind or
minikube context, localhost, LocalStack, also chosen earlier on the line: `minikube start &&
kubectl apply`); it is for development when a context, profile, namespace, project, workspace,
stack, host or database (never a resource's own name) holds dev, test, staging, preview,
sandbox, local and the like (`--profile dev`, `--context staging`, `api.staging.acme.dev`,
`app_test`). A change to a development target is allowed (`aws s3 cp ... --profile dev`),
except by the tools that reconcile a whole environment the team shares (kubectl, helm,
terraform, pulumi, cdk: `--context staging apply` is asked, `Table.dev_passes`); a delete
there is asked; a wholesale destroy there is denied unless it is also this machine (`dropdb
app_test`). A target chosen earlier on the line (`kubectl config use-context prod && ...`)
counts as named (selection.py). Each entry carries the rule code that reports it
(the gate that registers the code reports the finding) and the command lines it must block
and must leave alone; tests/gates/commands/test_effect_tables.py runs every example through
the whole engine.
"""

from __future__ import annotations

from cf_guidance.decision import ASK, DENY
from cf_guidance.gates.commands import Args, describe, resolver_at
from cf_guidance.gates.commands.summary import summary
from cf_guidance.gates.reasons import finding

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.decision import Finding
    from cf_guidance.gates._base import GateContext
    from cf_guidance.shell.model import Command, ShellAnalysis

READ = "read"
LOCAL = "local"
CONTRIBUTE = "contribute"
CHANGE = "change"
DELETE = "delete"
DESTROY = "destroy"
EXPOSE = "expose"
CREDENTIAL = "credential"
SEND = "send"
SUPPLY = "supply"
EXEC = "exec"
PERSIST = "persist"
WEAKEN = "weaken"
GRANT = "grant"
RUN = "run"
EFFECTS = (READ, LOCAL, CONTRIBUTE, CHANGE, DELETE, RUN, DESTROY, EXPOSE, CREDENTIAL, SEND, GRANT, SUPPLY, EXEC, PERSIST, WEAKEN)
#: Effects that never block.
HARMLESS = frozenset((READ, LOCAL, CONTRIBUTE))
#: Effects that change something: what a rule against a program's "commands that modify state" is about.
CHANGES = frozenset((CHANGE, DELETE, DESTROY, EXPOSE, GRANT, WEAKEN, PERSIST))

#: The rule of a remote change, and the rule it becomes on a shared or production target.
REMOTE_CHANGE = "EFF001"
SHARED_CHANGE = "EFF002"


class Words:
    """One word of an entry's subcommand path: `delete`, `delete|del|rm`, `delete-*`, `*`."""

    __slots__ = ("exact", "prefixes", "anything")

    def __init__(self, spec: str) -> None:
        self.anything = spec == "*"
        exact: set[str] = set()
        prefixes: list[str] = []
        for choice in spec.split("|"):
            if choice.endswith("*") and choice != "*":
                prefixes.append(choice[:-1])
            else:
                exact.add(choice)
        self.exact = frozenset(exact)
        self.prefixes = tuple(prefixes)

    def match(self, word: str) -> bool:
        return self.anything or word in self.exact or (bool(self.prefixes) and word.startswith(self.prefixes))


#: Word matchers by spec, shared by the entries that use the same spec (`api`, `delete`).
_WORDS: dict[str, Words] = {}


class Entry:
    """One row of a program's table: the words and flags it matches, what that does, who reports it.

    `words` is the subcommand path from the first positional on (`"s3 rm"`, `"delete-*"`,
    `"get|describe"`, `"*"`); `flags` must contain one of these options, `unless` none of them;
    `test(parsed, cmd, analysis)` decides what words and flags cannot (a refspec, an endpoint,
    a URL): it answers "" when the entry does not apply, else the detail to report ("=" for the
    entry's own). In the detail `{program}` is the program, `{words}` the subcommand words the
    entry matched and `{verb}` the last of them (`kubectl {verb} changes the cluster`). `verdict`
    fixes the verdict for the local effects (SUPPLY, EXEC, PERSIST, WEAKEN); `instead` is the
    advice shown with the finding when the rule's hint does not fit the program. `block` and
    `allow` are the command lines this entry must block (ask or deny, with its code) and the
    look-alikes the whole guard must allow.
    """

    __slots__ = ("words", "effect", "code", "detail", "flags", "unless", "test", "verdict", "instead", "block", "allow", "first", "_checked")

    def __init__(
        self,
        words: str,
        effect: str,
        code: str = "",
        detail: str = "",
        *,
        flags: tuple[str, ...] = (),
        unless: tuple[str, ...] = (),
        test: Callable[[Parsed, Command, ShellAnalysis | None], str] | None = None,
        verdict: str = "",
        instead: str = "",
        block: tuple[str, ...] = (),
        allow: tuple[str, ...] = (),
    ) -> None:
        self.words = tuple([_WORDS.get(spec) or _WORDS.setdefault(spec, Words(spec)) for spec in words.split()])
        #: the literal first words this entry can start with (None: any word), for the table's index
        first = self.words[0] if self.words else None
        self.first = None if first is None or first.anything or first.prefixes else first.exact
        #: the words `matches` compares: a literal first word is already matched by the table's index
        self._checked = tuple(enumerate(self.words))[1 if self.first is not None else 0 :]
        self.effect = effect
        self.code = code
        self.detail = detail
        self.flags = flags
        self.unless = unless
        self.test = test
        self.verdict = verdict
        #: what to do instead, when the rule's own hint does not fit this command
        self.instead = instead
        self.block = block
        self.allow = allow

    def matches(self, parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
        """"" when this entry does not apply to the command, else its detail."""
        positionals = parsed.words
        if len(positionals) < len(self.words):
            return ""
        for at, want in self._checked:
            if not want.match(positionals[at]):
                return ""
        args = parsed.args
        if self.flags and not args.has(*self.flags):
            return ""
        if self.unless and args.has(*self.unless):
            return ""
        detail = self.detail
        if self.test is not None:
            found = self.test(parsed, cmd, analysis)
            if not found:
                return ""
            if found != "=":
                detail = found
        if "{" in detail:
            matched = positionals[: len(self.words)]
            detail = detail.replace("{program}", cmd.program).replace("{words}", " ".join(matched))
            detail = detail.replace("{verb}", matched[-1] if matched else "")
        return detail or cmd.program


class Parsed:
    """A command's arguments as a table reads them: `words` the subcommand path and other
    positionals, `args` the flags and values (cf_guidance.gates.commands.Args), `extra` what a
    table's own splitter adds (git's global `-c` settings)."""

    __slots__ = ("words", "args", "extra")

    def __init__(self, words: list[str], args: Args, extra: dict[str, list[str]] | None = None) -> None:
        self.words = words
        self.args = args
        self.extra = extra if extra is not None else {}


class Table:
    """A program's effects: how to read its arguments, where it names its target, its entries."""

    __slots__ = (
        "programs", "options", "entries", "always", "always_if", "context", "env", "wide", "local", "local_name", "shared_only", "split", "names",
        "cwd", "instead", "dev_passes", "_index", "_any", "triggers",
    )

    def __init__(
        self,
        programs: tuple[str, ...],
        entries: tuple[Entry, ...],
        *,
        always: tuple[Entry, ...] = (),
        always_if: tuple[str, ...] = (),
        options: tuple[str, ...] = (),
        context: tuple[str, ...] = (),
        env: tuple[str, ...] = (),
        wide: tuple[str, ...] = (),
        local: Callable[[Parsed, Command], bool] | None = None,
        local_name: Callable[[str], bool] | None = None,
        shared_only: tuple[str, ...] = (),
        split: Callable[[list[str], frozenset[str]], Parsed] | None = None,
        names: bool | Callable[[Parsed], list[str]] = True,
        cwd: bool = False,
        instead: str = "",
        dev_passes: bool = True,
    ) -> None:
        self.programs = programs
        self.entries = entries
        #: entries tried on every command besides the first match (git's one-shot `-c` settings),
        #: when some argument starts with one of `always_if` (all commands when it is empty)
        self.always = always
        self.always_if = always_if
        for entry in always:  # tried without the index: every word is compared
            entry._checked = tuple(enumerate(entry.words))
        #: options that take a value (so that the value is not taken for a subcommand word)
        self.options = frozenset(options)
        #: options whose values name the target (profile, context, namespace, project, host)
        self.context = context
        #: environment variables that name the target (`AWS_PROFILE=prod aws ...`)
        self.env = env
        #: flags that make a command act on everything (`--all`, `-A`)
        self.wide = wide
        #: True when the command's target is this machine
        self.local = local
        #: True when a context name chosen earlier on the line is this machine (`minikube`), see selection.py
        self.local_name = local_name
        #: context options whose values mark a shared target but never a non-production one
        #: (`terraform apply -target=module.test_db` changes whatever workspace is selected)
        self.shared_only = shared_only
        self.split = split
        #: the words that name the target besides options: every positional (True: resource
        #: names), none (False), or what a function picks (the host of `ssh HOST CMD`)
        self.names = names
        #: whether the working directory names the target (`cd envs/prod && terraform apply`)
        self.cwd = cwd
        #: what to do instead of a remote change (EFF001) of this program (`{program}` is replaced)
        self.instead = instead
        #: whether a development marker makes a change ordinary work: not for the tools that
        #: reconcile a whole environment (a cluster's objects, a stack's resources), whose dev or
        #: staging environment the team shares; a local one (kind, minikube, LocalStack) still passes
        self.dev_passes = dev_passes
        index: dict[str, list[Entry]] = {}
        anywhere: list[Entry] = []
        for entry in entries:
            if entry.first is None:
                anywhere.append(entry)
        for entry in entries:
            if entry.first is not None:
                for word in entry.first:
                    index.setdefault(word, [])
        for word, bucket in index.items():
            # in table order: the entries that can start with `word`, and those that start with anything
            bucket.extend(e for e in entries if e.first is None or word in e.first)
        self._index = {word: tuple(bucket) for word, bucket in index.items()}
        self._any = tuple(anywhere)
        #: The words one of which a command must hold for an entry that may block to match it
        #: (None: an entry that may block matches from any word, so every command is read).
        #: Most commands of a table hold none (`git status`, `npm test`): `hits` returns at once.
        firsts: set[str] = set()
        every = False
        for entry in entries:
            if entry.effect in HARMLESS:
                continue
            if entry.first is None:
                every = True
                break
            firsts.update(entry.first)
        self.triggers = None if every else frozenset(firsts)

    def parse(self, args: list[str]) -> Parsed:
        if self.split is not None:
            return self.split(args, self.options)
        parsed = Args(args, self.options)
        return Parsed(parsed.positionals, parsed)

    def candidates(self, first: str) -> tuple[Entry, ...]:
        return self._index.get(first, self._any)


class Hit:
    """What one command does by the model: the entry that matched and the verdict it gets."""

    __slots__ = ("entry", "code", "verdict", "detail", "effect", "shared", "instead")

    def __init__(self, entry: Entry, code: str, verdict: str, detail: str, shared: str, instead: str = "") -> None:
        self.entry = entry
        self.code = code
        self.verdict = verdict
        self.detail = detail
        self.effect = entry.effect
        #: the word that made the target look shared or production ("" when none did)
        self.shared = shared
        #: what to do instead, when the rule's own hint does not fit ("" to use it)
        self.instead = instead


# -- the tables, by family, loaded on first use -------------------------------------------------

#: family module -> the programs its tables cover (tests check this against the tables).
_FAMILIES = {
    "git": ("git",),
    "gh": ("gh",),
    "cloud": ("aws", "awslocal", "gcloud", "gsutil", "az", "eksctl"),
    "cluster": ("kubectl", "oc", "kubecolor", "helm"),
    "infra": ("terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf", "tflocal", "cdklocal"),
    "containers": ("docker", "podman", "nerdctl"),
    "data": ("psql", "mysql", "mariadb", "mongosh", "mongo", "redis-cli", "valkey-cli", "keydb-cli", "dropdb", "dropuser", "mysqladmin"),
    "npm": ("npm", "pnpm", "yarn", "bun", "npx"),
    "python": ("pip", "pip3", "uv", "uvx", "poetry", "pipx", "twine"),
    "languages": ("cargo", "go", "gem", "composer"),
    "network": ("ssh", "scp", "rsync", "curl", "wget", "http", "https", "xh", "ssh-copy-id"),
    "system": (
        "crontab", "systemctl", "launchctl", "ufw", "iptables", "ip6tables", "nft", "firewall-cmd", "setenforce", "csrutil", "spctl",
        "fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "parted", "gparted",
    ),
}
_FAMILY_OF = {program: family for family, programs in _FAMILIES.items() for program in programs}
#: Every program the model has a table for.
PROGRAMS = frozenset(_FAMILY_OF)
_tables: dict[str, Table] = {}


def table_for(program: str) -> Table | None:
    found = _tables.get(program)
    if found is None:
        family = _FAMILY_OF.get(program)
        if family is None:
            return None
        _load(family)
        found = _tables.get(program)
    return found


def _load(family: str) -> None:
    module = __import__(f"{__name__}.{family}", fromlist=["TABLES"])
    for table in module.TABLES:
        for program in table.programs:
            _tables[program] = table


def all_tables() -> list[Table]:
    """Every table, each once (loads every family: for tests and the docs)."""
    for family in _FAMILIES:
        _load(family)
    seen: list[Table] = []
    for table in _tables.values():
        if table not in seen:
            seen.append(table)
    return seen


# -- matching -----------------------------------------------------------------------------------


#: `python -m MODULE ARGS` runs these tools as `MODULE ARGS`.
PYTHON_MODULES = frozenset(("pip", "pip3", "uv", "poetry", "pipx", "twine"))


def program_and_args(cmd: Command) -> tuple[str, list[str]]:
    """The program a table describes and its arguments: `python3 -m pip install x` is `pip install x`."""
    program = cmd.program
    args = cmd.args
    if program[:6] == "python" and len(args) > 1 and args[0] == "-m" and args[1] in PYTHON_MODULES:
        return args[1], args[2:]
    return program, args


def may_have_table(program: str) -> bool:
    """True when a command of `program` may be described by a table (`python` may run `-m pip`)."""
    return program in PROGRAMS or program[:6] == "python"


def match(cmd: Command, analysis: ShellAnalysis | None = None) -> list[tuple[Entry, Parsed, str]]:
    """The entries of the command's table that apply: the first in table order, then every
    `always` entry that does, each as (entry, parsed arguments, detail)."""
    program, args = program_and_args(cmd)
    table = table_for(program)
    if table is None:
        return []
    if "--help" in args:
        return []  # prints usage, whatever the subcommand
    parsed = table.parse(args)
    words = parsed.words
    found: list[tuple[Entry, Parsed, str]] = []
    for entry in table.candidates(words[0] if words else ""):
        detail = entry.matches(parsed, cmd, analysis)
        if detail:
            found.append((entry, parsed, detail))
            break
    for entry in table.always:
        detail = entry.matches(parsed, cmd, analysis)
        if detail:
            found.append((entry, parsed, detail))
    return found


def changes_something(cmd: Command, analysis: ShellAnalysis | None = None) -> bool:
    """True when an entry of the command's table that applies changes something (`aws s3 rm`,
    `kubectl apply`), whatever its target: False for reading (`kubectl get`) and for a command
    no table describes."""
    return any(entry.effect in CHANGES for entry, _, _ in match(cmd, analysis))


def may_block(cmd: Command) -> bool:
    """False when no entry of the command's table that may block can match it (a table's
    `triggers` are not among its words and its `always` entries do not apply): `hits` is []."""
    program, args = program_and_args(cmd)
    table = table_for(program)
    return table is not None and _may_block(table, args)


def _may_block(table: Table, args: list[str]) -> bool:
    triggers = table.triggers
    if triggers is None or not triggers.isdisjoint(args):
        return True
    if table.always:
        prefixes = table.always_if
        if not prefixes:
            return True
        for arg in args:
            if arg.startswith(prefixes):
                return True
    return False


def hits(cmd: Command, analysis: ShellAnalysis | None = None, *, where: str = "") -> list[Hit]:
    """What `cmd` does by the model that may block, with verdicts; [] when harmless or unknown.

    `where` is the working directory relative to the project, which may name the target
    (`envs/prod`); so may an `export AWS_PROFILE=prod` earlier on the line (from `analysis`)."""
    return _hits(cmd, analysis, where) if may_block(cmd) else []


def _hits(cmd: Command, analysis: ShellAnalysis | None, where: str) -> list[Hit]:
    out: list[Hit] = []
    for entry, parsed, detail in match(cmd, analysis):
        if entry.effect not in HARMLESS:
            found = _weigh(entry, parsed, detail, cmd, analysis, where)
            if found is not None:
                out.append(found)
    return out


def _weigh(entry: Entry, parsed: Parsed, detail: str, cmd: Command, analysis: ShellAnalysis | None, where: str) -> Hit | None:
    """The verdict of a matched entry by its effect and its target (the table at the top)."""
    effect = entry.effect
    program = program_and_args(cmd)[0]
    table = _tables[program]
    code = entry.code
    verdict = entry.verdict
    shared = ""
    if not verdict:
        local = table.local is not None and table.local(parsed, cmd)
        chosen = ""
        if not local and effect in (CHANGE, DELETE, RUN, SEND, DESTROY) and analysis is not None and len(analysis.commands) > 1:
            chosen = _chosen_before(cmd, analysis, program, parsed)
            local = bool(chosen) and table.local_name is not None and table.local_name(chosen)
        if effect in (CHANGE, DELETE, RUN, SEND):
            if local:
                return None
            exported = _exported(analysis) if analysis is not None else ()
            shared, dev = target_marks(table, parsed, cmd, exported, where if table.cwd else "", chosen)
            if dev and not shared and effect == CHANGE and table.dev_passes:
                return None  # a development, test, staging or preview target: ordinary work
            verdict = DENY if shared else ASK
            if shared:
                if code == REMOTE_CHANGE:
                    code = SHARED_CHANGE
                detail = f"{detail}; the target looks shared or production ({shared})"
        elif effect == DESTROY:
            exported = _exported(analysis) if analysis is not None else ()
            shared, dev = target_marks(table, parsed, cmd, exported, where if table.cwd else "", chosen)
            if shared:
                verdict = DENY
                detail = f"{detail}; the target looks shared or production ({shared})"
            elif local and dev:
                return None  # a development or test target on this machine (`dropdb app_test`)
            else:
                verdict = ASK if local else DENY
        else:  # EXPOSE, CREDENTIAL (the gate weighs where a credential goes), and the local effects
            verdict = DENY if effect in (EXPOSE, CREDENTIAL, WEAKEN) else ASK
    instead = entry.instead or (table.instead if code == REMOTE_CHANGE else "")
    return Hit(entry, code, verdict, detail, shared, instead.replace("{program}", cmd.program))


def _chosen_before(cmd: Command, analysis: ShellAnalysis, program: str, parsed: Parsed) -> str:
    """The target chosen for `cmd` earlier on the line (`kubectl config use-context X && ...`), ""
    when none was or the command names its own (`--context`, `--profile`)."""
    for other in analysis.commands:
        if other.program in _SELECTING:
            from cf_guidance.gates.commands.effects import selection  # loaded only for lines that may select

            return selection.selected(cmd, analysis, program, parsed.args)
    return ""


#: The programs of selection.SELECTORS (a test checks it).
_SELECTING = frozenset(("kubectl", "kubectx", "kubens", "minikube", "kind", "k3d", "terraform", "tofu", "pulumi", "docker", "gcloud", "az"))


def event_hits(ctx: GateContext) -> list[tuple[Command, Hit]]:
    """What the model says the commands of a Bash event do, as (command, hit) pairs; worked
    out once per event and shared by the gates that report the codes (effects, destructive,
    secrets, supply-chain, repo-security, host)."""
    found = ctx._effects
    if found is not None and found[0] is ctx._shell:
        return found[1]
    out: list[tuple[Command, Hit]] = []
    seen = summary(ctx)
    if seen is None:
        return out
    analysis = seen.analysis
    programs = seen.programs
    if programs.isdisjoint(PROGRAMS):
        for program in programs:
            if program[:6] == "python":
                break
        else:
            ctx._effects = (analysis, out)
            return out  # the usual event: no program the model knows
    for cmd in analysis.commands:
        program = cmd.program
        if program in PROGRAMS:
            table = _tables.get(program) or table_for(program)
            args = cmd.argv[1:]
        elif program[:6] == "python":
            program, args = program_and_args(cmd)
            table = table_for(program)
        else:
            continue
        if table is None or not _may_block(table, args):
            continue
        where = ""
        if table.cwd:
            paths = resolver_at(ctx, cmd)
            where = paths.relative_to_project(paths.cwd) or paths.cwd
        for found_hit in _hits(cmd, analysis, where):
            out.append((cmd, found_hit))
    ctx._effects = (analysis, out)
    return out


def findings_for(
    ctx: GateContext, gate: str, codes: frozenset[str], drop: Callable[[Command, Hit], bool] | None = None
) -> list[Finding]:
    """The model's findings on a Bash event whose codes `gate` registers, with the weighed
    verdicts; `drop` says which hits the gate knows better than the model (it sees the project)."""
    if ctx.event.command is None:
        return []
    return [
        finding(gate, hit.code, hit.verdict, hit.detail, segment=describe(cmd), hint=hit.instead)
        for cmd, hit in event_hits(ctx)
        if hit.code in codes and (drop is None or not drop(cmd, hit))
    ]


def _exported(analysis: ShellAnalysis) -> tuple[tuple[str, str], ...]:
    """`export NAME=VALUE` pairs of the line (they name the target of the commands after them)."""
    pairs: list[tuple[str, str]] = []
    for cmd in analysis.commands:
        if cmd.program == "export":
            for word in cmd.args:
                name, eq, value = word.partition("=")
                if eq:
                    pairs.append((name, value))
    return tuple(pairs)


# -- shared, production and local targets -------------------------------------------------------

_SHARED_WORDS = frozenset(("prod", "production", "prd", "shared"))
_SHARED_NAMES = frozenset(("kube-system", "kube-public"))
_SEPARATORS = str.maketrans({c: " " for c in "-_./:@=,;+~[]{}()'\"\\ "})


def looks_shared(value: str) -> str:
    """The word of `value` that names a shared or production target, else ""."""
    if not value:
        return ""
    lowered = value.lower()
    if "pr" not in lowered and "sha" not in lowered and "kube-" not in lowered:
        return ""  # every word below holds one of these: most names are decided here
    if lowered in _SHARED_NAMES:
        return value
    for word in lowered.translate(_SEPARATORS).split():
        if word in _SHARED_WORDS or (word.startswith("prod") and not word.startswith("produc")) or word.endswith("prod"):
            return word
    return ""


def target_marks(
    table: Table, parsed: Parsed, cmd: Command, exported: tuple[tuple[str, str], ...] = (), where: str = "", chosen: str = ""
) -> tuple[str, str]:
    """(why the target looks shared or production, why it looks like development, tests,
    staging or a preview), each "" when nothing says so. Shared wins: a command whose words say
    both (`--profile dev ... s3://acme-prod-data`) is a change to production.

    The values read: context options (`--profile`, `--context`, `-n`), the table's environment
    variables (also `export`ed earlier on the line), the working directory of tables that are
    run in their configuration (`envs/prod`), a target chosen earlier on the line (`chosen`,
    see selection.py), and the names among the positionals: resource names mark a shared
    target only, hosts and databases picked by the table also a development one."""
    args = parsed.args
    for flag in table.wide:
        if args.has(flag):
            return flag, ""
    dev = ""
    for option in table.context:
        for value in args.value(option):
            if looks_shared(value):
                return f"{option} {value}", ""
            if not dev and option not in table.shared_only and looks_nonprod(value):
                dev = f"{option} {value}"
    for name, value in (*cmd.assignments, *exported):
        if name in table.env:
            if looks_shared(value):
                return f"{name}={value}", ""
            if not dev and looks_nonprod(value):
                dev = f"{name}={value}"
    for value, label in ((where, f"the working directory {where}"), (chosen, f"{chosen}, chosen earlier on the line")):
        if looks_shared(value):
            return label, ""
        if not dev and looks_nonprod(value):
            dev = label
    names = table.names
    if names:
        for value in parsed.words if names is True else names(parsed):
            if looks_shared(value):
                return value, ""
            # a host or a database names its environment (`api.staging.acme.dev`, `app_test`); a
            # resource's own name does not (`kubectl create clusterrolebinding test-admin ...`)
            if not dev and names is not True and looks_nonprod(_host_labels(value)):
                dev = value
    return "", dev


#: Words that name a target for development, tests, staging or previews (a trailing number is
#: ignored: `dev2`, `test-3`). `develop` is not among them: it is a branch others build on.
_DEV_WORDS = frozenset((
    "dev", "devel", "development", "test", "testing", "staging", "stage", "stg", "preview", "previews", "sandbox", "sbx", "local",
    "qa", "scratch", "playground", "ephemeral", "minikube", "kind",
))
def looks_nonprod(value: str) -> str:
    """The word of `value` that names a development, test, staging or preview target, else ""
    (`acme-dev-artifacts`, `kind-webapp`, `api.staging.acme.dev`, `ApiDevStack`, `qa2`)."""
    if not value:
        return ""
    spaced = []
    previous = ""
    for char in value:  # split camel case: ApiDevStack -> Api Dev Stack
        if char.isupper() and previous.islower():
            spaced.append(" ")
        spaced.append(char)
        previous = char
    for word in "".join(spaced).lower().translate(_SEPARATORS).split():
        if word.rstrip("0123456789") in _DEV_WORDS:
            return word
    return ""


def _host_labels(host: str) -> str:
    """A host name without its top-level domain: `api.staging.acme.dev` -> `api.staging.acme`."""
    return host.rsplit(".", 1)[0] if "." in host and not host.replace(".", "").isdigit() else host


_LOCAL_HOSTS = ("localhost", "127.", "0.0.0.0", "[::1]", "::1", "host.docker.internal", "kubernetes.docker.internal")


def is_local_host(host: str) -> bool:
    """True for this machine: localhost, loopback, `*.localhost`, Docker's name for the host."""
    host = host.lower()
    return host.startswith(_LOCAL_HOSTS) or host.endswith((".localhost", ".local")) or host in ("", "::1")


def url_host(url: str) -> str:
    """`https://user@api.example.com:8443/x` -> `api.example.com`; "" when `url` holds no host."""
    at = url.find("://")
    rest = url[at + 3 :] if at != -1 else url
    for stop in "/?#":
        cut = rest.find(stop)
        if cut != -1:
            rest = rest[:cut]
    rest = rest.rsplit("@", 1)[-1]
    if rest.startswith("["):
        return rest[: rest.find("]") + 1]
    return rest.split(":", 1)[0]


def remote_host(spec: str) -> str:
    """The host of an ssh/scp/rsync target (`user@host:path`, `host`, `ssh://user@host:22/x`), else ""."""
    if "://" in spec:
        return url_host(spec)
    if spec.startswith(("/", ".", "~")):
        return ""
    head = spec.split(":", 1)[0] if ":" in spec else spec
    return head.rsplit("@", 1)[-1]


# -- where a credential goes --------------------------------------------------------------------

#: Where each CLI's credentials are meant to go: sending them there (in a header, to a registry
#: login) is their use, not a leak.
ISSUERS = {
    "gh": ("github.com", "githubusercontent.com"),
    "git": ("github.com", "gitlab.com", "bitbucket.org"),
    "gcloud": ("googleapis.com", "gcr.io", "pkg.dev"),
    "az": ("azure.com", "microsoft.com", "windows.net", "azure.net", "azurecr.io"),
    "aws": ("amazonaws.com", "public.ecr.aws"),
    "npm": ("npmjs.org", "npmjs.com"),
}


def on_issuer(host: str, program: str) -> bool:
    """True when `host` is one of the hosts `program`'s credentials are issued for."""
    host = host.lower()
    return any(host == issuer or host.endswith("." + issuer) for issuer in ISSUERS.get(program, ()))

TRANSCRIPT = "transcript"
REPOSITORY = "repository"
NETWORK = "network"
CAPTURED = "captured"
DISCARDED = "discarded"

#: Programs that pass what they read on to their output (a credential piped through them is printed).
PASSTHROUGH = frozenset((
    "cat", "tee", "base64", "base32", "xxd", "od", "hexdump", "jq", "yq", "sed", "awk", "gawk", "head", "tail", "cut", "tr", "grep",
    "egrep", "sort", "uniq", "fold", "rev", "column", "less", "more",
))


def credential_route(cmd: Command, analysis: ShellAnalysis, senders: frozenset[str]) -> tuple[str, Command | None]:
    """Where the output of a credential-printing `cmd` goes: (route, the command that takes it).

    TRANSCRIPT (printed: the agent reads it, the model provider logs it), REPOSITORY (written to
    a file the caller must place), NETWORK (taken by a program in `senders`), CAPTURED (taken by
    a local program, a variable, a pipe), DISCARDED (`> /dev/null`)."""
    origin = cmd.origin
    if "$(" in origin or "`" in origin or "<(" in origin:
        outer = _enclosing(cmd, analysis)
        if outer is None:
            return CAPTURED, None  # `T=$(...)`: only a variable holds it
        if outer.program in senders:
            return NETWORK, outer
        if outer.program in ("echo", "printf") and not outer.pipe_next and not _redirected(outer):
            return TRANSCRIPT, outer
        return CAPTURED, outer
    current = cmd
    while True:
        target = stdout_file(current)
        if target is not None:
            return (DISCARDED, None) if target == "/dev/null" else (REPOSITORY, current)
        if not current.pipe_next:
            return TRANSCRIPT, current if current is not cmd else None
        consumer = _pipe_consumer(current, analysis)
        if consumer is None:
            return CAPTURED, None
        if consumer.program in senders:
            return NETWORK, consumer
        if consumer.program == "xargs":  # it hands what it reads to the command it runs
            ran = _run_by(consumer, analysis)
            return (NETWORK, ran) if ran is not None and ran.program in senders else (CAPTURED, ran)
        if consumer.program not in PASSTHROUGH:
            return CAPTURED, consumer
        current = consumer


def _redirected(cmd: Command) -> bool:
    return stdout_file(cmd) is not None


def stdout_file(cmd: Command) -> str | None:
    """Where `cmd` sends its standard output (`> file`), None when it is not redirected."""
    for op, target in cmd.redirects:
        if op in (">", ">>", ">|", "&>", "&>>", "1>", "1>>"):
            return target
    return None


def _enclosing(cmd: Command, analysis: ShellAnalysis) -> Command | None:
    """The command whose words hold `cmd` as a substitution (`curl -d "t=$(gh auth token)"`)."""
    text = cmd.text or " ".join(cmd.argv)
    for other in analysis.commands:
        if other is cmd:
            continue
        for arg in other.argv:
            if text in arg and ("$(" in arg or "`" in arg or "<(" in arg):
                return other
    return None


def _run_by(xargs: Command, analysis: ShellAnalysis) -> Command | None:
    """The command an `xargs` runs (listed after it with an origin ending in "xargs")."""
    commands = analysis.commands
    at = next((i for i, other in enumerate(commands) if other is xargs), len(commands))
    for other in commands[at + 1 :]:
        if other.origin.endswith("xargs"):
            return other
    return None


def _pipe_consumer(cmd: Command, analysis: ShellAnalysis) -> Command | None:
    """The command `cmd` pipes into: the next command of the same origin named by `pipe_next`."""
    commands = analysis.commands
    try:
        at = next(i for i, other in enumerate(commands) if other is cmd)
    except StopIteration:
        return None
    for other in commands[at + 1 :]:
        if other.program == cmd.pipe_next and other.origin == cmd.origin:
            return other
    return None
