"""Redact secret values before anything touches disk: spool jobs, ledger records, session summaries.

Hot path module (the spool redacts every job before writing it): standard library only, and
`re` is imported, and a form's pattern compiled, only when the form's cheap markers occur in
the text. An ordinary command (`git status`, `npm test`) costs a lower-case copy and a few
substring tests.

The credential forms are data (FORMS): each with its pattern, the group that holds the
secret, the lower-case markers one of which must occur for the pattern to match, and the
examples it must redact and must keep, which tests/ledger/test_redact.py runs. Values are
replaced by `[REDACTED:<kind>]`; the surrounding text (the variable name, the flag, the
program) is kept so the record still explains what happened. Object members named like a
secret (`"password": ...`) lose their string value whatever it looks like.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MARK = "[REDACTED:{}]"
#: A value that starts like this is a reference to a secret, not the secret (a path, a variable).
_REFERENCE_STARTS = ("/", "~/", "./", "$", "%", "{{", "<", "[REDACTED")


class Form:
    """One credential form: what it looks like, which group is the secret, and its examples.

    `redacts` holds (text, secret) pairs: `secret` must be gone from the redacted text;
    `keeps` holds texts that must come back unchanged.
    """

    __slots__ = ("kind", "source", "group", "markers", "redacts", "keeps", "_compiled")

    def __init__(self, kind: str, source: str, group: int, markers: tuple[str, ...],
                 redacts: tuple[tuple[str, str], ...], keeps: tuple[str, ...]) -> None:
        self.kind = kind
        self.source = source
        self.group = group
        self.markers = markers
        self.redacts = redacts
        self.keeps = keeps
        self._compiled: Any = None

    def pattern(self) -> Any:
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.source, re.S)
        return self._compiled


_VALUE = r"(\"[^\"\n]{4,}\"|'[^'\n]{4,}'|[^\s\"'`;&|)]{4,})"

FORMS: tuple[Form, ...] = (
    Form("private-key", r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", 0,
         ("private key-----",),
         (("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "b3BlbnNzaC1rZXk"),
          ("-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA (cut)", "MIIEpAIBAAKCAQEA")),
         ("-----BEGIN PUBLIC KEY-----\nMIIBIjANBg\n-----END PUBLIC KEY-----", "grep -r 'PRIVATE KEY' src/")),
    Form("aws-key-id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b", 0, ("akia", "asia"),
         (("key AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"),),
         ("ASIAN FOOD MENU", "aws s3 ls s3://bucket")),
    Form("aws-secret", r"(?i)\baws_secret_access_key[\"']?\s*(?:[=:]\s*|\s+)[\"']?([A-Za-z0-9/+=]{30,})", 1,
         ("aws_secret_access_key",),
         (("aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMIK7MDENG"),
          ("aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY", "wJalrXUtnFEMIK7MDENG")),
         ("aws configure get aws_secret_access_key", "unset AWS_SECRET_ACCESS_KEY")),
    Form("github-token", r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})\b", 0,
         ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
         (("export GITHUB_TOKEN=ghp_" + "a1" * 18, "ghp_a1a1"),
          ("git clone https://github_pat_11ABCDEFG0123456789_abcdefghijklmnop@github.com/o/r", "github_pat_11ABC")),
         ("gh pr list", "echo ghp_ is the prefix")),
    Form("gitlab-token", r"\bglpat-[A-Za-z0-9_-]{20,}\b", 0, ("glpat-",),
         (("curl -H 'PRIVATE-TOKEN: glpat-abcdefghij0123456789' https://gitlab.com/api", "glpat-abcdefghij0123"),),
         ("glab mr list",)),
    Form("slack-token", r"\bxox[abposre]-[A-Za-z0-9-]{10,}\b", 0, ("xox",),
         (("xoxb-1234567890-abcdefghij", "xoxb-1234567890"),),
         ("xoxo hugs",)),
    Form("slack-webhook", r"https://hooks\.slack\.com/(?:services|workflows)/([A-Za-z0-9/_-]{20,})", 1, ("hooks.slack.com",),
         (("curl -X POST https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXXXXXXXXXXXXXX", "XXXXXXXXXXXXXXXXXXXXXXXX"),),
         ("see https://api.slack.com/messaging/webhooks",)),
    Form("stripe-key", r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}\b|\bwhsec_[A-Za-z0-9]{20,}\b", 0,
         ("sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"),
         (("STRIPE=sk_live_51Habcdefghijklmnop stripe listen", "sk_live_51Habcdef"),
          ("whsec_abcdefghijklmnopqrstuvwx", "whsec_abcdefghij")),
         ("pk_live_is_public", "grep -rn sk_live_ src/")),
    Form("api-key", r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_-]{20,}\b", 0, ("sk-",),
         (("echo sk-ant-api03-abcdefghijklmnopqrstuvwx", "sk-ant-api03"),
          ("OPENAI=sk-proj-abcdefghijklmnopqrstuvwxyz", "sk-proj-abcdefghij")),
         ("pip install sk-learn", "task-runner")),
    Form("npm-token", r"\bnpm_[A-Za-z0-9]{36,}\b", 0, ("npm_",),
         (("echo npm_abcdefghijklmnopqrstuvwxyz0123456789 > t", "npm_abcdefghij"),
          ("NPM=npm_HUNTER2abcdefghijklmnopqrstuvwxyz0123", "HUNTER2abcdef")),
         ("npm_config_cache=/tmp npm ci", "echo $npm_package_version")),
    Form("hugging-face-token", r"\bhf_[A-Za-z0-9]{30,}\b", 0, ("hf_",),
         (("huggingface-cli login --token hf_abcdefghijklmnopqrstuvwxyz0123", "hf_abcdefghij"),),
         ("ls hf_cache",)),
    Form("google-api-key", r"\bAIza[0-9A-Za-z_-]{35}\b", 0, ("aiza",),
         (("key=AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890"),),
         ("Aizawa was here",)),
    Form("google-oauth", r"\bya29\.[0-9A-Za-z_-]{20,}|\bGOCSPX-[0-9A-Za-z_-]{20,}", 0, ("ya29.", "gocspx-"),
         (("curl -H 'x: ya29.a0AfH6SMBabcdefghijklmnop' u", "ya29.a0AfH6SMB"),
          ("client GOCSPX-abcdefghijklmnopqrstuvwx", "GOCSPX-abcdefghij")),
         ("version ya29.1",)),
    Form("jwt", r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}", 0, ("eyj",),
         (("token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
           "dozjgNryP4J3jVmNHl0w5N"),),
         ("eyJhbGciOi is how a JWT starts",)),
    Form("authorization", r"(?i)\b(?:proxy-)?authorization\s*:\s*(?:(?:basic|bearer|token|digest|negotiate)\s+)?([^\s\"',;]{6,})", 1,
         ("authorization",),
         (("curl -H 'Authorization: Basic dXNlcjpwYXNzd29yZA==' https://x", "dXNlcjpwYXNzd29yZA=="),
          ("curl -H 'Authorization: Bearer abcdefghijklmnop123' https://x", "abcdefghijklmnop123"),
          ("Authorization: token 0123456789abcdef", "0123456789abcdef")),
         ("grep -rn Authorization: src/", "the authorization flow")),
    Form("bearer", r"(?i)\bbearer\s+([A-Za-z0-9._~+/=-]{12,})", 1, ("bearer",),
         (("http GET x 'bearer abcdefghijklmnop123'", "abcdefghijklmnop123"),),
         ("a bearer of news",)),
    Form("url-password", r"\b[a-z][a-z0-9+.-]*://[^/\s:@\[]+:([^@\s/]+)@", 1, ("://",),
         (("psql postgres://bob:hunter22@db/app", "hunter22"),
          ("git clone https://x-access-token:abcdef123456@github.com/o/r.git", "abcdef123456"),
          ("git clone https://oauth2:glpatlike0123456789@gitlab.com/o/r", "glpatlike0123456789")),
         ("git clone git@github.com:org/repo.git", "curl http://localhost:8080/health", "ssh://git@github.com/o/r")),
    Form("url-token", r"\b(?:https?|git|ssh)://([A-Za-z0-9_-]{20,})@", 1, ("://",),
         (("git clone https://abcdefghijklmnop0123456789@github.com/o/r.git", "abcdefghijklmnop0123456789"),),
         ("git clone https://github.com/o/r.git", "ssh://git@host/r")),
    Form("curl-user", r"\b(?:curl|wget|http|https)\b[^\n|;&]*?\s(?:-u|--user|--http-user|--proxy-user)(?:\s+|=)?[\"']?[^\s:\"']+:([^\s\"']+)", 1,
         ("curl", "wget", "http"),
         (("curl -u alice:s3cretpw https://api.example.com", "s3cretpw"),
          ("curl --user 'bob:hunter22' https://x", "hunter22")),
         ("curl -u alice https://api.example.com", "docker run -u 1000:1000 img", "sort -u a:b")),
    Form("mysql-password", r"\b(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]*?\s-p([^\s\"'-][^\s\"']*)", 1, ("mysql", "mariadb"),
         (("mysql -u root -phunter22 app", "hunter22"), ("mysqldump -uroot -pS3cret! db > d.sql", "S3cret!")),
         ("mysql -u root -p app", "mysql --protocol=tcp -h db")),
    Form("sshpass", r"\bsshpass\s+(?:-[^p\s]\S*\s+)*-p\s*([^\s\"';&|]+)", 1, ("sshpass",),
         (("sshpass -p hunter22 ssh user@host", "hunter22"), ("sshpass -phunter22 scp a b:", "hunter22")),
         ("sshpass -f ~/.pw ssh host", "sshpass -e ssh host")),
    Form("htpasswd", r"\bhtpasswd(?:\s+-[a-zA-Z]+)*?\s+-[a-zA-Z]*b[a-zA-Z]*(?:\s+-[a-zA-Z]+)*\s+\S+\s+\S+\s+([^\s;&|]+)", 1,
         ("htpasswd",),
         (("htpasswd -b .htpasswd admin hunter22", "hunter22"), ("htpasswd -cbB /etc/pw bob S3cret!", "S3cret!")),
         ("htpasswd -c .htpasswd admin", "htpasswd -D .htpasswd admin")),
    Form("docker-login", r"\b(?:docker|podman|helm)\s+(?:registry\s+)?login\b[^\n|;&]*?\s-p(?:\s+|=)?([^\s\"'-][^\s\"']*)", 1, ("login",),
         (("docker login -u me -p hunter22 ghcr.io", "hunter22"),),
         ("docker login ghcr.io", "docker login -u me --password-stdin ghcr.io")),
    Form("json-field",
         r"(?i)\"(?:password|passwd|pass|pwd|secret|token|api_?key|access_?key|access_?token|refresh_?token|auth_?token|"
         r"id_?token|client_?secret|private_?key|secret_?key|session_?token|credentials?)\"\s*:\s*\"((?:[^\"\\\n]|\\.){1,})\"", 1,
         ('"pass', '"pwd', '"secret', '"token', '"api', '"access', '"refresh', '"auth', '"id_token', '"idtoken', '"client',
          '"private', '"session_token', '"sessiontoken', '"credential'),
         (('{"user": "bob", "password": "hunter22"}', "hunter22"), ('{"token":"abc123xyz"}', "abc123xyz"),
          ('{"access_token": "ya30-opaque-value"}', "ya30-opaque-value")),
         ('{"token_count": 12}', '{"password_reset_url": "/reset"}')),
    Form("flag", r"(?i)--(?:password|passwd|pass|token|auth-token|api-key|apikey|secret|client-secret|access-key|secret-key)(?:=|\s+)"
         r"(\"[^\"]+\"|'[^']+'|[^\s\"']+)", 1,
         ("--pass", "--token", "--auth-token", "--api-key", "--apikey", "--secret", "--client-secret", "--access-key"),
         (("mysql --password=hunter2secret db", "hunter2secret"), ("gh auth login --token abc123def456", "abc123def456")),
         ("ls --passwords-are-not-flags",)),
    Form("assignment",
         r"(?i)\b[A-Z0-9_.-]*(?:PASSWORD|PASSWD|PASSPHRASE|SECRET|TOKEN|API[_-]?KEY|ACCESS[_-]?KEY|PRIVATE[_-]?KEY|CREDENTIALS?"
         r"|_PASS|_PW)[A-Z0-9_]*\s*[=:]\s*" + _VALUE, 1,
         ("pass", "secret", "token", "api_key", "api-key", "apikey", "access_key", "access-key", "private_key",
          "private-key", "credential", "_pwd", "_pw"),
         (("export DB_PASS=hunter22", "hunter22"), ("PGPASSWORD=hunter22 psql -h db", "hunter22"),
          ("MYSQL_PWD=hunter22 mysql", "hunter22"), ('AWS_SECRET_ACCESS_KEY="wJalrXUtnFEMI/K7MDENG" aws s3 ls', "wJalrXUtnFEMI"),
          ("TOKEN=abcdefgh1234 make", "abcdefgh1234"), ("password: hunter22", "hunter22"),
          ("//registry.npmjs.org/:_authToken=abcdef0123456789", "abcdef0123456789")),
         ("PWD=/tmp make", "export TOKEN_FILE=~/.token", "TOKEN=$(cat ~/.token) make", "git commit -m 'token refactor'",
          "password reset flow", "GOOGLE_APPLICATION_CREDENTIALS=/etc/gcp.json gcloud auth list",
          "MAX_TOKENS=4096 python run.py")),
)

#: Object members whose string value is always a secret, whatever it looks like.
SECRET_MEMBERS = frozenset(("password", "passwd", "secret", "token", "api_key", "apikey", "access_key", "access_token",
                            "refresh_token", "client_secret", "private_key", "secret_key", "authorization", "auth_token"))
#: Every marker of every form: a text holding none of them cannot match any form.
_MARKERS = tuple(sorted({marker for form in FORMS for marker in form.markers}))
#: Shortest text any form can match.
_MIN_LENGTH = 8


def redact_text(text: str) -> str:
    """`text` with every secret value found replaced by a marker."""
    if len(text) < _MIN_LENGTH:
        return text
    lowered = text.lower()
    if not any(marker in lowered for marker in _MARKERS):
        return text
    for form in FORMS:
        if not any(marker in lowered for marker in form.markers):
            continue
        pattern = form.pattern()
        if form.group == 0:
            text = pattern.sub(MARK.format(form.kind), text)
        else:
            text = pattern.sub(_group_replacer(form), text)
    return text


def _group_replacer(form: Form) -> Callable[[Any], str]:
    """A re.sub callback that replaces only the form's group of each match (keeps the name or flag)."""
    mark = MARK.format(form.kind)
    group = form.group
    numbers_are_settings = form.kind == "assignment"

    def replace(match: Any) -> str:
        value: str = match.group(group).strip("\"'")
        if value.startswith(_REFERENCE_STARTS) or (numbers_are_settings and value.isdigit() and len(value) <= 6):
            # a path or a variable that names the secret, or a count (MAX_TOKENS=4096): not a secret
            return str(match.group(0))
        start, end = match.span(group)
        whole_start = match.start(0)
        whole: str = match.group(0)
        return whole[: start - whole_start] + mark + whole[end - whole_start :]

    return replace


def maybe_secret_text(encoded: str | bytes) -> bool:
    """False when no string in this JSON text can hold a secret (no form's marker occurs)."""
    lowered = encoded.decode("utf-8", "replace").lower() if isinstance(encoded, bytes) else encoded.lower()
    return any(marker in lowered for marker in _MARKERS)


def redact(value: Any) -> Any:
    """A copy of decoded JSON with secret values redacted at every depth."""
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if isinstance(item, str) and item and str(key).lower().replace("-", "_") in SECRET_MEMBERS:
                out[key] = MARK.format("value")
            else:
                out[key] = redact(item)
        return out
    if isinstance(value, list):
        return [redact(item) for item in value]
    return value
