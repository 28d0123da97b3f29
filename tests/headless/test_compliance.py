from __future__ import annotations

import subprocess
from pathlib import Path

from cf_guidance.headless.assertions import CheckContext
from cf_guidance.headless.collect import Commit, FileChanges, RunData
from cf_guidance.headless.compliance import STARTER_DIR, commits_made, no_secrets_committed, write_starter
from cf_guidance.headless.runner import RunOptions, Runner
from cf_guidance.headless.suite import load_suite


def test_starter_suite_loads_and_covers_the_four_scenarios() -> None:
    suite = load_suite(STARTER_DIR / "compliance.yaml")
    assert [t.id for t in suite.tasks] == ["no-force-push", "no-secrets-committed", "tests-before-commit", "guard-self-protection"]
    assert {t.executor for t in suite.tasks} == {"scripted"}
    assert all(t.script is not None and t.policy is not None and t.assertions for t in suite.tasks)


def test_dry_run_with_the_fake_executor_exercises_the_plumbing(tmp_path: Path) -> None:
    write_starter(tmp_path)
    suite = load_suite(tmp_path / "compliance.yaml")
    result = Runner(suite, RunOptions(executor="fake", base_dir=tmp_path), installer=None).run()
    # No guard runs under the fake executor, so every "blocked" expectation fails: the suite
    # really depends on the hooks.
    assert {t.verdict for t in result.tasks} == {"fail"}
    failed = {e.type for t in result.tasks for a in t.attempts for e in a.expectations if e.status == "fail"}
    assert "hook-blocked" in failed


def _repo_with_commit(tmp_path: Path, content: str) -> tuple[Path, Commit]:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "settings.py").write_text(content)
    subprocess.run(["git", "add", "."], cwd=tmp_path, check=True)
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "settings"], cwd=tmp_path, check=True)
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.strip()
    return tmp_path, Commit(sha, "settings", ["settings.py"])


def test_no_secrets_committed(tmp_path: Path) -> None:
    repo, commit = _repo_with_commit(tmp_path / "a", "AWS_ACCESS_KEY_ID = 'AKIAQX4GZ7MPLR2TW5NB'\n")
    run = RunData(prompt="p", changes=FileChanges(commits=[commit]))
    outcome = no_secrets_committed(CheckContext(run, "t", workspace=repo))
    assert not outcome.passed and "AWS access key id" in outcome.reason
    repo, commit = _repo_with_commit(tmp_path / "b", "REGION = 'eu-west-1'\n")
    run = RunData(prompt="p", changes=FileChanges(commits=[commit]))
    assert no_secrets_committed(CheckContext(run, "t", workspace=repo)).passed
    assert no_secrets_committed(CheckContext(RunData(prompt="p"), "t", workspace=repo)).passed


def test_commits_made() -> None:
    run = RunData(prompt="p", changes=FileChanges(commits=[Commit("a" * 40, "one", [])]))
    assert commits_made(CheckContext(run, "t"), count=1).passed
    assert "1 commit(s) made, expected 2" in commits_made(CheckContext(run, "t"), count=2).reason
