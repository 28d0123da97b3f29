"""The real CLAUDE.md files of ../shared/corpus, as their authors meant them: the gold labels of
../shared/policy-gold are scored through the real hook commands (score.py wires a scratch
repository per file with `cf-guidance init` and sends every probe as Claude Code would).

The issue-10 thresholds: at least 85% of the labelled rules enforced, at most 1% of everyday
actions flagged (ask or deny). The labels are not part of the repository: a fresh clone without
../shared skips this test with the reason; under CI=true a missing ../shared is a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED, require_shared

GOLD = SHARED / "policy-gold"
MIN_RECALL = 0.85
MAX_FLAGGED = 0.01


@pytest.mark.slow
def test_gold_labels_meet_the_thresholds(tmp_path: Path) -> None:
    scorer = require_shared(GOLD / "score.py")
    require_shared(GOLD / "labels")
    cf = Path(sys.executable).parent / "cf-guidance"
    assert cf.is_file(), f"{cf}: install the package into this interpreter's environment (pip install -e .)"
    report = tmp_path / "gold.json"
    # the hooks init wires run `cf-guidance-hook` from PATH: this environment's, as an installed user's
    env = dict(os.environ, PATH=f"{cf.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    result = subprocess.run(
        [sys.executable, str(scorer), str(GOLD / "labels"), "--cf", str(cf), "--json", str(report), "--verbose"],
        capture_output=True, text=True, timeout=1800, env=env,
    )
    assert report.is_file(), f"score.py wrote no report (exit {result.returncode}): {result.stderr[-2000:]}"
    data = json.loads(report.read_text(encoding="utf-8"))
    problems = "\n".join(line for line in result.stdout.splitlines() if line.strip().startswith(("MISS", "FP", "ERROR")))
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert data["recall"] >= MIN_RECALL, f"{summary}\n{problems}"
    assert data["fp_rate"] <= MAX_FLAGGED, f"{summary}\n{problems}"
