"""Rules about files and paths as authors write them: titles over lists of paths, kinds of files
named in words, paths marked read-only, "this directory" in a subdirectory's file. Each form has
sentences that must give the checks shown and look-alikes that must give none (the lexicon's own
examples are compiled by test_lexicon.py; these are more of each form, in other wordings)."""

from __future__ import annotations

import pytest

from pathlib import Path

from cf_guidance._glob import glob_match
from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_project, compile_sources
from tests.policy.test_lexicon import shorts

MUST = [
    # a heading, a label or an intro that names files under a force
    ("## Files you must never touch\n\n- `config/prod.yml`\n", ["deny write config/prod.yml"]),
    ("### Files Claude must not modify\n\n- `LICENSE`\n", ["deny write LICENSE", "deny write LICENSE/**"]),
    ("## Files not to edit\n\n- `schema.graphql`\n", ["deny write schema.graphql"]),
    ("## Directories you should not modify\n\n- `legacy/`\n", ["warn write legacy/**"]),
    ("## Files to never read\n\n- `data/raw/`\n", ["deny read data/raw/**"]),
    ("**Read-only:** `vendor/`, `third_party/`", ["deny write vendor/**", "deny write third_party/**"]),
    ("## Off-limits directories\n\n- `infra/prod`\n", ["deny write infra/prod", "deny write infra/prod/**"]),
    ("Restricted paths:\n\n- `deploy/`\n", ["ask write deploy/**"]),
    ("## Protected Files\n\n| File | Reason |\n|---|---|\n| `alembic.ini` | shared config |\n", ["ask write alembic.ini"]),
    # a heading's condition holds for its items, with or without a cue of their own
    ("## Do not edit without approval\n\n- `schema.sql`\n- `infra/`\n", ["ask write schema.sql", "ask write infra/**"]),
    ("### Prohibited operations (without approval)\n\n- \u274c Edit `config/prod.yml`\n", ["ask write config/prod.yml"]),
    ("## Never\n\n- Edit `dist/`\n", ["deny write dist/**"]),
    # a table row whose first cell is a path reads its other cells like the clauses of a list item
    ("| File | Status |\n|---|---|\n| `schema.graphql` | DO NOT EDIT (generated) |\n| `src/app.ts` | entry point |\n",
     ["deny write schema.graphql"]),
    ("| Directory | Notes |\n|---|---|\n| `vendor/` | read-only, synced from upstream |\n", ["deny write vendor/**"]),
    # a kind of file over a list, or listed as such by the document, is those paths, not where such files usually are
    ("**Never manually edit auto-generated files:**\n\n- `docs/cli.md`\n", ["deny write docs/cli.md"]),
    ("These are vendored from upstream:\n\n- `lib/parser/`\n\n## Rules\n\n- Do not modify vendored code\n",
     ["deny write lib/parser/**"]),
    # a clause that opens with the directory it is about: its paths are in it
    ("- In `packages/web/`, never edit `src/gen/`", ["deny write packages/web/src/gen/**"]),
    ("- Inside `services/api`: do not read `secrets.json`", ["deny read services/api/**/secrets.json"]),
    ("- Under `apps/mobile`, never touch the Dockerfiles", [f"deny write apps/mobile/**/{g}" for g in (
        "Dockerfile", "Dockerfile.*", "*.Dockerfile", "*.dockerfile", "docker-compose*.yml", "docker-compose*.yaml",
        "compose.yml", "compose.yaml")]),
    # kinds of files named in words; where such files usually are is a guess, so those ask at most
    ("- Never hand-edit the generated code", ["ask write **/generated/**", "ask write **/__generated__/**", "ask write **/gen/**",
                                              "ask write *.generated.*", "ask write *.gen.*", "ask write *_generated.*",
                                              "ask write *.pb.go", "ask write *_pb2.py", "ask write *_pb2_grpc.py",
                                              "ask write *.g.dart", "ask write *.freezed.dart"]),
    ("- Third-party code must not be modified", ["ask write **/vendor/**", "ask write **/vendored/**",
                                                 "ask write **/third_party/**", "ask write **/third-party/**"]),
    ("- Do not touch the Prettier configuration", ["deny write .prettierrc", "deny write .prettierrc.*",
                                                   "deny write prettier.config.*"]),
    ("- Ask before changing the CI pipelines", ["ask write .github/workflows/**", "ask write .gitlab-ci.yml",
                                                "ask write .circleci/**", "ask write Jenkinsfile", "ask write azure-pipelines.yml",
                                                "ask write .buildkite/**", "ask write .travis.yml",
                                                "ask write bitbucket-pipelines.yml"]),
    # a path said to be read-only (in parentheses, after "is" or "as", or after the item's label)
    ("- `bench/` — benchmark inputs (READ-ONLY)", ["deny write bench/**"]),
    ("- `golden/expected.txt` is read-only", ["deny write golden/expected.txt"]),
    ("- Treat `spec/api.yaml` as immutable.", ["deny write spec/api.yaml"]),
    ("- `third_party/` — everything in it is off-limits", ["deny write third_party/**"]),
    # a path from `/` in prose is the repository's root, as in a .gitignore, unless it is the machine's
    ("- Never edit `/src/generated/`", ["deny write src/generated/**"]),
    ("### Files you must not edit\n\n| File | Why |\n|---|---|\n| `/crm/css/classic.css` | vendor CSS |\n",
     ["deny write crm/css/classic.css"]),
    ("- Never read `/etc/hosts`", ["deny read /etc/hosts", "deny read /etc/hosts/**"]),
    ("- Never edit `/opt/service/config.toml`", ["deny write /opt/service/config.toml"]),
    ("```guidance\ndeny write /srv2/x.txt\n```\n", ["deny write /srv2/x.txt"]),
    ("- Never edit vendored or generated files", ["ask write **/vendor/**", "ask write **/vendored/**",
                                                  "ask write **/third_party/**", "ask write **/third-party/**",
                                                  "ask write **/generated/**", "ask write **/__generated__/**", "ask write **/gen/**",
                                                  "ask write *.generated.*", "ask write *.gen.*", "ask write *_generated.*",
                                                  "ask write *.pb.go", "ask write *_pb2.py", "ask write *_pb2_grpc.py",
                                                  "ask write *.g.dart", "ask write *.freezed.dart"]),
    # the generated code is what the command makes, no path to ban: an ordering after schema changes
    ("- Regenerate the generated code with `make gen` after schema changes",
     ["warn sequence make gen -> git commit after *schema* **/*schema*/**"]),
]

MUST_NOT = [
    "## Key files\n\n- `src/main.rs` - entry point\n",
    "## Files you can edit freely\n\n- `src/`\n",
    "## Files you will need\n\n- `README.md`\n",
    "## Protected branches\n\n- `main`\n",
    "## Read-only replicas\n\n- `db-replica-1` serves reports\n",
    "## Files\n\n- `src/app.ts` - the app\n",
    "## Important files to read first\n\n- `docs/architecture.md`\n",
    "- Vendored code is pinned in `vendor/modules.txt`",
    "- The ESLint config extends the recommended rules",
    "- Keep the Dockerfile small",
    "- Never delete test data in the staging database",
    "- Never edit files you have not read",
    "- `src/config.ts` — config objects are immutable",
    "- The public API is read-only",
    "- `app.db` is opened read-only by the reporting job",
    "- Use a read-only token for `gh api` calls",
    "- `docs/` holds the read-only mirror of the wiki",
    "- Never modify `/api/v1` endpoints",
    "- In `docs/`, use sentence case for headings",
    "| Command | What it does |\n|---|---|\n| `npm run dev` | starts the dev server |\n| `src/` | the code |\n",
]


@pytest.mark.parametrize(("markdown", "expected"), MUST, ids=[m.split("\n")[0][:50] for m, _ in MUST])
def test_path_rules_compile(markdown: str, expected: list[str]) -> None:
    assert shorts(markdown) == expected


@pytest.mark.parametrize("markdown", MUST_NOT, ids=[m.split("\n")[0][:50] for m in MUST_NOT])
def test_path_look_alikes_compile_to_nothing(markdown: str) -> None:
    assert shorts(markdown) == []


def test_this_directory_in_a_subdirectory_file_is_that_directory(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "CLAUDE.md").write_text("# Project\n\n- Do not edit files in this directory\n", encoding="utf-8")
    (tmp_path / "src" / "core").mkdir(parents=True)
    (tmp_path / "src" / "core" / "CLAUDE.md").write_text(
        "# Core\n\n- DO NOT edit any files in this directory without explicit human approval\n"
        "- Never create files here\n", encoding="utf-8")
    bundle = compile_project(tmp_path)
    found = [(check.get("scope", ""), short(check)) for check in bundle["checks"]]
    # at the root "this directory" is the whole project: no check would leave ordinary work possible
    assert found == [("src/core", "ask write src/core/**"), ("src/core", "deny create src/core/**")]


@pytest.mark.parametrize("markdown", ["- Never read env files", "- Never read secrets",
                                      "- NEVER read `.env`, `.env.local`, or any file containing API keys or secrets."])
def test_env_rules_leave_the_committed_example_readable(markdown: str) -> None:
    patterns = [check["pattern"] for check in compile_sources(markdown + "\n")["checks"] if check["kind"] == "read"]
    assert any(glob_match(p, ".env.production") for p in patterns)
    assert not any(glob_match(p, ".env.example") or glob_match(p, "config/.env.sample") for p in patterns)
