"""--shard K/N splits a suite's runs stably; `headless merge` joins the shards' reports into the
report one unsharded run would have written (verdicts, statistics, totals)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

import pytest

from cf_guidance.errors import ConfigError
from cf_guidance.headless.compliance import write_starter
from cf_guidance.headless.executors import ExecRequest, FakeExecutor, stream
from cf_guidance.headless.report import build_report, merge_reports, render_junit, write_reports
from cf_guidance.headless.runner import RunOptions, Runner, parse_shard, shard_of
from cf_guidance.headless.suite import load_suite

from .helpers import TURNS, run_cli, write_suite

SUITE = """\
version: 1
name: shard-demo
defaults: {executor: fake}
tasks:
""" + "".join(f"""  - id: task-{i}
    prompt: go {i}
    assertions: [{{type: output-contains, expected: done}}]
""" for i in range(6))


def responder(request: ExecRequest) -> str:
    """Deterministic per run: task-1 always fails, task-4 fails its second repeat."""
    failing = request.task.id == "task-1" or (request.task.id == "task-4" and request.repeat == 1)
    return stream(turns=TURNS[1:2], result_text="nope" if failing else "done")


def run(tmp_path: Path, shard: tuple[int, int] | None = None) -> dict[str, Any]:
    suite = load_suite(tmp_path / "suite.yaml")
    runner = Runner(suite, RunOptions(base_dir=tmp_path, repeat=3, shard=shard),
                    executors={"fake": FakeExecutor(responder)}, installer=None)
    return build_report(runner.run(), argv=["cf-guidance", "headless", "run", "suite.yaml"])


def comparable(report: dict[str, Any]) -> dict[str, Any]:
    """What a run decided, without times, session ids and workspace paths."""
    def scrub(value: Any) -> Any:
        return json.loads(re.sub(r"cfg-[\w.-]+?-[\w]{8}\b", "cfg-X", json.dumps(value)))

    tasks = []
    for task in report["tasks"]:
        attempts = [{
            "repeat": a["repeat"], "status": a["status"], "error_kind": a["error_kind"],
            "expectations": [(e["id"], e["type"], e["status"], e["reason"]) for e in a["expectations"]],
            "calls": [(c["tool"], c["input"], c["ran"], c["denied_by"], c["rule"]) for c in a["tool_calls"]],
            "effects": [a["side_effects"][k] for k in ("files_created", "files_modified", "files_deleted")],
            "answer": a["claude_response"]["full_text"], "violations": len(a["violations"]),
        } for a in task["attempts"]]
        meta = {k: v for k, v in task["meta"].items() if k != "duration_ms"}
        tasks.append({"meta": meta, "stats": task["stats"], "attempts": attempts})
    summary = {k: v for k, v in report["summary"].items() if k != "durationMs"}
    return scrub({"summary": summary, "tasks": tasks})


def test_shards_are_stable_and_cover_every_run_once() -> None:
    assert shard_of("no-force-push", 0, 2) == 2 and shard_of("no-secrets-committed", 0, 2) == 1  # fixed forever
    runs = [(f"t{i}", r) for i in range(50) for r in range(4)]
    for count in (1, 2, 3, 7):
        owners = [shard_of(task, repeat, count) for task, repeat in runs]
        assert set(owners) <= set(range(1, count + 1))
        assert owners == [shard_of(task, repeat, count) for task, repeat in runs]  # stable
    assert len({shard_of("t1", r, 3) for r in range(20)}) > 1  # a task's repeats spread over shards


@pytest.mark.parametrize(("text", "error"), [("1/2", None), ("2/2", None), ("0/2", "1 <= K <= N"), ("3/2", "1 <= K <= N"),
                                             ("2", "give K/N"), ("a/b", "give K/N")])
def test_parse_shard(text: str, error: str | None) -> None:
    if error is None:
        assert parse_shard(text) == tuple(int(x) for x in text.split("/"))
    else:
        with pytest.raises(ConfigError, match=error):
            parse_shard(text)


def test_merged_shards_equal_the_unsharded_run(tmp_path: Path) -> None:
    write_suite(tmp_path, SUITE)
    whole = run(tmp_path)
    parts = [run(tmp_path, (k, 3)) for k in (1, 2, 3)]
    assert sorted(a["repeat"] for p in parts for t in p["tasks"] for a in t["attempts"]) == [0] * 6 + [1] * 6 + [2] * 6
    assert all(p["run"]["shard"] == f"{k}/3" for k, p in zip((1, 2, 3), parts))
    merged = merge_reports(parts, ["s1", "s2", "s3"])
    assert comparable(merged) == comparable(whole)
    assert merged["run"]["shard"] is None and [p["shard"] for p in merged["run"]["merged_from"]] == ["1/3", "2/3", "3/3"]
    junit = ET.fromstring(render_junit(merged))
    assert (junit.get("tests"), junit.get("failures")) == ("6", "2")


def test_merge_refuses_reports_that_are_not_one_run(tmp_path: Path) -> None:
    write_suite(tmp_path, SUITE)
    one, two, three = (run(tmp_path, (k, 3)) for k in (1, 2, 3))
    with pytest.raises(ConfigError, match=r"shard 3/3 missing; merge all 3 shards"):
        merge_reports([one, two])
    with pytest.raises(ConfigError, match="is also in"):
        merge_reports([one, one], ["a", "b"])
    with pytest.raises(ConfigError, match="split the suite differently"):
        merge_reports([one, {**two, "run": {**two["run"], "shard": "2/4"}}])
    with pytest.raises(ConfigError, match="sharded and unsharded"):
        merge_reports([one, {**two, "run": {**two["run"], "shard": None}}])
    with pytest.raises(ConfigError, match="repeat 1 differs"):
        merge_reports([one, {**two, "run": {**two["run"], "repeat": 1}}], ["a", "b"])
    with pytest.raises(ConfigError, match="a different suite file"):
        merge_reports([one, {**two, "suite": {**two["suite"], "sha256": "0" * 64}}], ["a", "b"])
    assert merge_reports([one, two, three])["summary"]["totalTasks"] == 6


def test_merge_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_suite(tmp_path, SUITE)
    for k in (1, 2):
        write_reports(run(tmp_path, (k, 2)), tmp_path / f"shard-{k}")
    code, out, _ = run_cli(["headless", "merge", str(tmp_path / "shard-1"), str(tmp_path / "shard-2"), "--report-dir",
                            str(tmp_path / "merged")], capsys)
    assert code == 1  # task-1 fails
    assert "Merged: 2 reports" in out and "Tasks: 6 (4 passed, 2 failed" in out
    merged = json.loads((tmp_path / "merged" / "report.json").read_text())
    assert merged["run"]["command"].startswith("cf-guidance headless merge")
    (tmp_path / "suite.yaml").write_text(SUITE + "# edited\n")
    write_reports(run(tmp_path, (2, 2)), tmp_path / "shard-2")
    code, _, err = run_cli(["headless", "merge", str(tmp_path / "shard-1"), str(tmp_path / "shard-2"), "--report-dir",
                            str(tmp_path / "m2")], capsys)
    assert code == 2 and len(err.strip().splitlines()) == 1 and "a different suite file" in err


@pytest.mark.e2e
def test_two_shards_of_the_starter_suite_merge_to_the_unsharded_report(claude: Path, tmp_path: Path) -> None:
    write_starter(tmp_path / "suite")
    suite = load_suite(tmp_path / "suite" / "compliance.yaml")

    def real(shard: tuple[int, int] | None) -> dict[str, Any]:
        result = Runner(suite, RunOptions(jobs=2, base_dir=tmp_path, retries=1, shard=shard)).run()
        return build_report(result)

    whole = real(None)
    parts = [real((1, 2)), real((2, 2))]
    assert all(p["tasks"] for p in parts), "both shards hold runs"
    merged = merge_reports(parts, ["shard-1", "shard-2"])
    assert comparable(merged) == comparable(whole)
    assert merged["summary"]["tasksPassed"] == 4
