"""Effects of the infrastructure-as-code CLIs: terraform, tofu, terragrunt, pulumi, cdk, cdktf
(and LocalStack's tflocal and cdklocal)."""

from __future__ import annotations

from cf_guidance.decision import DENY
from cf_guidance.gates.commands import Args
from cf_guidance.gates.commands.effects import CHANGE, CREDENTIAL, DELETE, DESTROY, READ, Entry, Parsed, Table

TYPE_CHECKING = False
if TYPE_CHECKING:
    from cf_guidance.shell.model import Command, ShellAnalysis


def _single_dash_split(args: list[str], options: frozenset[str]) -> Parsed:
    """terraform's options are single-dash words (`-var-file=x`, `-auto-approve`): read them as
    `--var-file=x`, `--auto-approve` so that one letter is not taken for a cluster of flags."""
    spelled = ["-" + arg if arg.startswith("-") and not arg.startswith("--") and len(arg) > 2 else arg for arg in args]
    parsed = Args(spelled, options)
    return Parsed(parsed.positionals, parsed)


def _secret_output(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if not parsed.args.has("--raw", "--json"):
        return ""
    names = [w.lower() for w in parsed.words[1:]]
    if any(word in name for name in names for word in ("password", "secret", "token", "key", "credential")):
        return f"{cmd.program} output prints the sensitive value {parsed.words[1]}"
    return ""


def _every_unit(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    if parsed.words[:1] == ["run-all"] or parsed.args.has("--all"):
        return "terragrunt run-all changes the infrastructure of every module at once"
    return ""


def _tf_local(parsed: Parsed, cmd: Command) -> bool:
    return cmd.program in ("tflocal", "cdklocal")


_TF_READ = ("plan|init|validate|fmt|show|output|graph|providers|version|workspace|console|get|login|logout|test|metadata|modules|"
            "render-json|hclfmt|graph-dependencies|output-module-groups|validate-inputs|run-all|run|state")

_TERRAFORM = Table(
    ("terraform", "tofu", "terragrunt", "tflocal"),
    (
        Entry("destroy", DESTROY, "DST042", "{program} destroy deletes the managed infrastructure",
              block=("terraform destroy -auto-approve", "tofu destroy", "terragrunt destroy --terragrunt-non-interactive"),
              allow=("terraform plan -destroy",)),
        Entry("apply", DESTROY, "DST042", "{program} apply -destroy deletes the managed infrastructure", flags=("--destroy",),
              block=("terraform apply -destroy -auto-approve",), allow=("terraform plan -destroy -out=destroy.plan",)),
        Entry("run-all|run destroy", DESTROY, "DST042", "terragrunt run-all destroy deletes the infrastructure of every module",
              block=("terragrunt run-all destroy", "terragrunt run --all destroy"), allow=("terragrunt run-all plan",)),
        Entry("run-all|run apply|import|refresh|state", CHANGE, "EFF002", test=_every_unit, verdict=DENY,
              block=("terragrunt run-all apply --terragrunt-non-interactive", "terragrunt run --all apply"),
              allow=("terragrunt run-all validate",)),
        Entry("run apply|import|refresh|state", CHANGE, "EFF001", "terragrunt run changes the managed infrastructure",
              block=("terragrunt run -- apply",), allow=("terragrunt run -- plan",)),
        Entry("state rm", DELETE, "DST044", "{program} state rm forgets managed resources",
              block=("terraform state rm aws_s3_bucket.b",), allow=("terraform state list",)),
        Entry("state pull", CREDENTIAL, "EFF004", "{program} state pull prints the state, with every secret of the resources",
              block=("terraform state pull",), allow=("terraform state show aws_instance.web",)),
        Entry("output", CREDENTIAL, "EFF004", test=_secret_output,
              block=("terraform output -raw db_password",), allow=("terraform output", "terraform output -raw bucket_name")),
        Entry("apply|import|taint|untaint|refresh|force-unlock", CHANGE, "EFF001", "{program} changes the managed infrastructure",
              block=("terraform apply", "terraform apply -auto-approve tfplan", "tofu apply -var-file=prod.tfvars",
                     "terraform -chdir=envs/production apply", "TF_WORKSPACE=prod terraform apply"),
              allow=("tflocal apply -auto-approve",)),
        Entry("state mv|push|replace-provider", CHANGE, "EFF001", "{program} state changes the shared state",
              block=("terraform state mv aws_instance.a aws_instance.b",), allow=()),
        Entry("workspace delete", DELETE, "EFF001", "{program} workspace delete deletes a workspace's state",
              block=("terraform workspace delete feature-x",), allow=("terraform workspace list", "terraform workspace select dev")),
        Entry(_TF_READ, READ, allow=("terraform plan", "terraform init -upgrade", "terraform fmt -recursive", "terraform validate",
                                     "terraform show -json plan.out", "terragrunt run-all plan")),
    ),
    options=("--var", "--var-file", "--target", "--chdir", "--state", "--backend-config", "--replace", "--out", "--lock-timeout",
             "--parallelism", "--terragrunt-working-dir", "--terragrunt-config", "--working-dir"),
    context=("--chdir", "--var-file", "--target", "--terragrunt-working-dir", "--working-dir", "--backend-config"),
    env=("TF_WORKSPACE",),
    shared_only=("--target",),
    split=_single_dash_split,
    local=_tf_local,
    cwd=True,
    dev_passes=False,
    instead="preview with `{program} plan` and let the user apply (`tflocal` for LocalStack)"
)

_PULUMI = Table(
    ("pulumi",),
    (
        Entry("destroy|down", DESTROY, "DST042", "pulumi destroy deletes the stack's infrastructure",
              block=("pulumi destroy --yes", "pulumi destroy -s dev"), allow=("pulumi preview",)),
        Entry("stack rm", DELETE, "DST044", "pulumi stack rm deletes the stack and forgets its resources",
              block=("pulumi stack rm dev --yes",), allow=("pulumi stack ls",)),
        Entry("state delete", DELETE, "DST044", "pulumi state delete forgets managed resources",
              block=("pulumi state delete 'urn:pulumi:dev::app::aws:s3/bucket:Bucket::b'",), allow=()),
        Entry("stack|config", CREDENTIAL, "EFF004", "pulumi --show-secrets prints the stack's secrets", flags=("--show-secrets",),
              block=("pulumi stack output --show-secrets", "pulumi config --show-secrets"), allow=("pulumi stack output",)),
        Entry("up|update|import|refresh|cancel|state", CHANGE, "EFF001", "pulumi {verb} changes the stack's infrastructure",
              block=("pulumi up --yes", "pulumi up -s acme/prod --yes", "pulumi refresh -y", "pulumi up -s acme/staging --yes"),
              allow=("pulumi preview -s dev",)),
        Entry("preview|stack|config|whoami|logs|about|plugin|new|login|logout|version|watch|org|schema|convert|policy|env|install",
              READ, allow=("pulumi preview --diff", "pulumi stack select dev", "pulumi config set aws:region eu-west-1")),
    ),
    options=("-s", "--stack", "-C", "--cwd", "-c", "--config", "--target", "--config-file", "-m", "--message", "--parallel", "-p"),
    context=("-s", "--stack", "-C", "--cwd", "--config-file"),
    env=("PULUMI_STACK",),
    cwd=True,
    dev_passes=False,
    instead="preview with `pulumi preview` and let the user update"
)

_CDK = Table(
    ("cdk", "cdktf", "cdklocal"),
    (
        Entry("destroy", DESTROY, "DST042", "{program} destroy deletes the stacks' infrastructure",
              block=("cdk destroy --force", "cdktf destroy"), allow=("cdk diff",)),
        Entry("deploy|bootstrap|import|rollback|migrate", CHANGE, "EFF001", "{program} deploy changes the stacks' infrastructure",
              block=("cdk deploy ApiStack", "cdk deploy --all --require-approval never", "cdk deploy ProdApiStack"),
              allow=("cdklocal deploy ApiStack",)),
        Entry("synth|synthesize|diff|list|ls|doctor|init|docs|context|metadata|acknowledge|notices|get|version|watch",
              READ, allow=("cdk synth", "cdk diff ApiStack", "cdktf get")),
    ),
    options=("-a", "--app", "-c", "--context", "--profile", "-o", "--output", "--require-approval", "-e", "--exclusively"),
    context=("--profile", "-c", "--context"),
    env=("AWS_PROFILE",),
    wide=("--all",),
    local=_tf_local,
    cwd=True,
    dev_passes=False,
    instead="preview with `{program} diff` and let the user deploy (`cdklocal` for LocalStack)"
)

TABLES = (_TERRAFORM, _PULUMI, _CDK)
