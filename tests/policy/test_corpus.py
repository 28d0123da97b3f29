"""Twenty real CLAUDE.md files: all compile without errors or unread blocks, every check they
yield was reviewed by hand, and no check comes from a heading or a code block.

The files are read from the shared corpus (tests/conftest.py CORPUS); they are not copied here.
Whether the checks do what the authors meant is measured against the gold labels
(tests/policy/test_gold.py); this file pins what the extractor reads, so that any change to
it shows up here as a diff to review.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cf_guidance.policy.checkform import short
from cf_guidance.policy.compiler import compile_sources
from cf_guidance.policy.markdown import parse
from tests.conftest import CORPUS, require_shared

FILES = sorted(CORPUS.glob("[0-9][0-9]-*.md"))

#: Every check the corpus yields, reviewed by hand: (file, line, check in short form).
EXPECTED_CHECKS = {
    ("01-oven-sh-bun.md", 9, "deny command timeout bun bd"),
    ("01-oven-sh-bun.md", 11, "deny command bun test"),
    ("01-oven-sh-bun.md", 18, "warn command bun-debug"),
    ("01-oven-sh-bun.md", 242, "deny command bun test"),
    ("01-oven-sh-bun.md", 242, "deny command bun *.*"),
    ("01-oven-sh-bun.md", 253, "deny branch claude/*"),
    ("01-oven-sh-bun.md", 255, "deny sequence bun bd test -> git push"),
    ("02-pytorch-pytorch.md", 3, "deny command pip install pip"),
    ("02-pytorch-pytorch.md", 3, "deny command pip install python"),
    ("02-pytorch-pytorch.md", 3, "deny command pip install spin"),
    ("02-pytorch-pytorch.md", 7, "ask command pip install -e . -v --no-build-isolation"),
    ("02-pytorch-pytorch.md", 9, "deny command <build>"),
    ("02-pytorch-pytorch.md", 29, "deny command <lint>"),
    ("02-pytorch-pytorch.md", 35, "ask command git commit"),
    ("02-pytorch-pytorch.md", 42, "warn message without claude"),
    ("03-microsoft-playwright.md", 53, "deny sequence flint -> git commit"),
    ("03-microsoft-playwright.md", 53, "deny command tsc --noEmit"),
    ("03-microsoft-playwright.md", 53, "deny command <lint>"),
    ("03-microsoft-playwright.md", 104, "deny sequence npm run flint -> git commit"),
    ("03-microsoft-playwright.md", 133, "deny message test plan"),
    ("03-microsoft-playwright.md", 134, "warn branch fix-*"),
    ("03-microsoft-playwright.md", 143, "deny message co-authored-by | generated with | created with"),
    ("03-microsoft-playwright.md", 153, "ask command git commit --amend"),
    ("03-microsoft-playwright.md", 155, "ask command git push"),
    ("04-astral-sh-uv.md", 655, "deny write docs/reference/cli.md"),
    ("04-astral-sh-uv.md", 656, "deny write docs/reference/settings.md"),
    ("04-astral-sh-uv.md", 657, "deny write docs/reference/environment.md"),
    ("04-astral-sh-uv.md", 658, "deny write *.schema.json"),
    ("04-astral-sh-uv.md", 674, "ask command <pull-request>"),
    ("05-denoland-deno.md", 28, "deny sequence format.js -> git commit"),
    ("05-denoland-deno.md", 29, "deny sequence lint.js -> git commit"),
    ("05-denoland-deno.md", 35, "deny command <force-push>"),
    ("05-denoland-deno.md", 171, "deny command deno test"),
    ("05-denoland-deno.md", 413, "warn command cargo build"),
    ("06-tldraw-tldraw.md", 37, "warn command yarn vitest"),
    ("06-tldraw-tldraw.md", 48, "deny command tsc"),
    ("06-tldraw-tldraw.md", 157, "deny sequence yarn typecheck -> git commit"),
    ("06-tldraw-tldraw.md", 163, "warn command npm"),
    ("06-tldraw-tldraw.md", 246, "ask create *.md"),
    ("06-tldraw-tldraw.md", 246, "ask create README*"),
    ("07-vercel-next.js.md", 5, "warn command <git-write>"),
    ("07-vercel-next.js.md", 62, "deny message generated with claude code | co-authored-by"),
    ("10-konnpei-swing-station.md", 212, "ask command <update-dependency>"),
    ("10-konnpei-swing-station.md", 225, "warn write pages/_document.js"),
    ("10-konnpei-swing-station.md", 226, "ask write package.json"),
    ("10-konnpei-swing-station.md", 226, "ask command <writes package.json>"),
    ("10-konnpei-swing-station.md", 227, "ask write package-lock.json"),
    ("10-konnpei-swing-station.md", 227, "ask command <writes package-lock.json>"),
    ("10-konnpei-swing-station.md", 228, "ask write .github/workflows"),
    ("10-konnpei-swing-station.md", 228, "ask write .github/workflows/**"),
    ("10-konnpei-swing-station.md", 229, "deny command <env-change>"),
    ("10-konnpei-swing-station.md", 230, "deny stage .env .env.local .env.*.local .env.production .env.development *.pem *.key id_rsa id_ed25519 credentials.json *.p12 secrets.*"),
    ("10-konnpei-swing-station.md", 252, "warn sequence <review-changes> -> git push to main"),
    ("11-syntrixbase-pepasus.md", 4, "warn sequence <test> -> git commit"),
    ("11-syntrixbase-pepasus.md", 16, "ask command <add-dependency>"),
    ("11-syntrixbase-pepasus.md", 23, "deny message generated with claude code | via happy | co-authored-by"),
    ("11-syntrixbase-pepasus.md", 24, "deny command git push --force"),
    ("11-syntrixbase-pepasus.md", 24, "deny command git push -f"),
    ("11-syntrixbase-pepasus.md", 24, "ask command git push --force-with-lease"),
    ("11-syntrixbase-pepasus.md", 25, "deny target push main"),
    ("11-syntrixbase-pepasus.md", 31, "deny target merge main"),
    ("11-syntrixbase-pepasus.md", 31, "deny target push main"),
    ("11-syntrixbase-pepasus.md", 32, "deny write data/**"),
    ("11-syntrixbase-pepasus.md", 32, "deny command rm -rf data/"),
    ("11-syntrixbase-pepasus.md", 33, "deny command git worktree remove"),
    ("12-vabole-patcher.md", 16, "ask target commit main"),
    ("12-vabole-patcher.md", 39, "deny command npm publish"),
    ("12-vabole-patcher.md", 39, "warn command <publish>"),
    ("12-vabole-patcher.md", 41, "deny command npm publish"),
    ("12-vabole-patcher.md", 100, "warn command git tag v0.3.*"),
    ("12-vabole-patcher.md", 100, "warn command git push origin v0.3.*"),
    ("12-vabole-patcher.md", 107, "deny command npm publish"),
    ("12-vabole-patcher.md", 108, "deny command npm login"),
    ("12-vabole-patcher.md", 109, "deny command <login>"),
    ("12-vabole-patcher.md", 109, "deny command <publish>"),
    ("12-vabole-patcher.md", 110, "deny read ~/.npmrc"),
    ("12-vabole-patcher.md", 110, "deny read .npmrc"),
    ("12-vabole-patcher.md", 110, "deny variable NPM_TOKEN NODE_AUTH_TOKEN"),
    ("13-papay0-appily-web.md", 140, "ask command git commit"),
    ("13-papay0-appily-web.md", 140, "ask command git push"),
    ("13-papay0-appily-web.md", 254, "warn command <database>"),
    ("13-papay0-appily-web.md", 333, "deny create middleware.ts"),
    ("13-papay0-appily-web.md", 353, "ask command git commit"),
    ("13-papay0-appily-web.md", 354, "ask command git push"),
    ("13-papay0-appily-web.md", 355, "ask command npm run dev"),
    ("14-cirra-ai-skills.md", 7, "deny write plugins/cirra-ai-sf/skills/*/SKILL.md"),
    ("14-cirra-ai-skills.md", 49, "deny write plugins/cirra-ai-sf/skills/*/SKILL.md"),
    ("14-cirra-ai-skills.md", 50, "deny write plugins/cirra-ai-sf/.claude-plugin/plugin.json"),
    ("14-cirra-ai-skills.md", 82, "deny write plugins/**"),
    ("14-cirra-ai-skills.md", 90, "deny sequence npm run lint -> git push"),
    ("14-cirra-ai-skills.md", 91, "deny sequence pytest tests/ -> git push"),
    ("14-cirra-ai-skills.md", 91, "deny sequence pytest skills/*/tests/ -> git push"),
    ("15-blueraai-bluera-knowledge.md", 50, "warn command <tag>"),
    ("15-blueraai-bluera-knowledge.md", 58, "deny command git commit --no-verify"),
    ("18-smm-h-wesktop.md", 1, "deny write CLAUDE.md"),
    ("19-cnotv-generative-art.md", 3, "ask write CLAUDE.md"),
    ("20-0xMiden-protocol.md", 38, "warn branch *-claude/*"),
    ("20-0xMiden-protocol.md", 39, "warn command git worktree add"),
    ("20-0xMiden-protocol.md", 41, "warn arguments git commit needs user.name=Claude (Opus) user.email=noreply@anthropic.com commit.gpgsign=false"),
    ("20-0xMiden-protocol.md", 43, "deny command git commit --amend once pushed"),
    ("20-0xMiden-protocol.md", 43, "deny command git rebase -i once pushed"),
    ("20-0xMiden-protocol.md", 43, "deny command <force-push>"),
}


def compiled(path: Path) -> dict[str, Any]:
    return compile_sources(path.read_bytes())


def test_corpus_is_present() -> None:
    require_shared(CORPUS)
    assert len(FILES) == 20


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_compiles_without_errors(path: Path) -> None:
    bundle = compiled(path)
    assert [d for d in bundle["diagnostics"] if d["level"] == "error"] == []
    assert not [d for d in bundle["diagnostics"] if "could not read" in d["message"]]
    assert all(s["enforcement"] in ("enforced", "advisory") for s in bundle["shards"])
    assert all(s.get("why") for s in bundle["shards"] if s["enforcement"] == "advisory" and not s["id"].startswith("M"))


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_checks_never_come_from_headings_or_code_blocks(path: Path) -> None:
    blocks = parse(path.read_text(encoding="utf-8"))
    spans = [(b.line, b.end_line) for b in blocks if b.kind in ("bullet", "paragraph", "row", "html")]
    for check in compiled(path)["checks"]:
        line = int(check["source"].rsplit(":", 1)[1])
        assert any(start <= line <= end for start, end in spans), f"{path.name}:{line} is not in a rule-bearing block"


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_the_whole_file_as_a_code_block_compiles_to_nothing(path: Path) -> None:
    text = path.read_text(encoding="utf-8").replace("~~~~~", "")
    bundle = compile_sources("~~~~~text\n" + text + "\n~~~~~\n")
    assert bundle["checks"] == [] and bundle["shards"] == []


def test_every_corpus_check_was_reviewed() -> None:
    require_shared(CORPUS)
    found = {(path.name, int(c["source"].rsplit(":", 1)[1]), short(c)) for path in FILES for c in compiled(path)["checks"]}
    assert sorted(found - EXPECTED_CHECKS) == [], "new checks: review them and add them here"
    assert sorted(EXPECTED_CHECKS - found) == [], "checks no longer found: was that meant?"
