from __future__ import annotations

from autopilot.helpers import bundle, check, shard
from cf_guidance.autopilot.promote import (
    END_MARKER,
    SECTION_HEADING,
    START_MARKER,
    block_span,
    build_candidate,
    find_promotable,
)

SHARED = """# Service

## Git

- [R001] Never run `git push --force`.
- Keep commits small.

## Safety

- [R900] Never run `terraform destroy`.
"""

LOCAL = """# Local experiments

- Never run `make deploy`.
  Deploys go through CI.
- Keep commits small.
- [R001] Never run `git push --force` or `git push -f`.
- [R900] Avoid `terraform destroy`.

```guidance
[R050] deny command kubectl delete *  -- use the release pipeline
```
"""


def shared_bundle() -> dict:
    return bundle(
        [
            shard("R001", "Never run `git push --force`.", "CLAUDE.md:5", checks=["R001#1"]),
            shard("S-keep", "Keep commits small.", "CLAUDE.md:6"),
            shard("R900", "Never run `terraform destroy`.", "CLAUDE.md:10", checks=["R900#1"], constitution=True),
        ],
        [check("R001", 1, ["git", "push", "--force"]), check("R900", 1, ["terraform", "destroy"])],
    )


def merged_bundle() -> dict:
    local = "CLAUDE.local.md"
    return bundle(
        [
            shard("S-keep", "Keep commits small.", f"{local}:5", origin="local"),
            shard("S-deploy", "Never run `make deploy`. Deploys go through CI.", f"{local}:3", origin="local", checks=["S-deploy#1"]),
            shard("R001", "Never run `git push --force` or `git push -f`.", f"{local}:6", origin="local", checks=["R001#1", "R001#2"]),
            shard("R900", "Avoid `terraform destroy`.", f"{local}:7", origin="local", checks=["R900#1"]),
            shard("R050", "deny command kubectl delete *", f"{local}:10", origin="local", checks=["R050#1"], priority=5),
        ],
        [
            check("S-deploy", 1, ["make", "deploy"]),
            check("R001", 1, ["git", "push", "--force"]),
            check("R001", 2, ["git", "push", "-f"]),
            check("R900", 1, ["terraform", "destroy"], verdict="warn"),
            check("R050", 1, ["kubectl", "delete", "*"]),
        ],
    )


def test_new_and_changed_rules_are_promotable_by_id() -> None:
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL)
    by_id = {p.id: p for p in plan.promotions}
    assert set(by_id) == {"S-deploy", "R001", "R050"}
    assert by_id["S-deploy"].status == "new"
    assert by_id["R001"].status == "changed"
    # Verbatim text, continuation line included; guidance lines kept as machine rules.
    assert by_id["S-deploy"].lines == ["- Never run `make deploy`.", "  Deploys go through CI."]
    assert by_id["R050"].kind == "guidance"
    assert by_id["R050"].lines == ["[R050] deny command kubectl delete *  -- use the release pipeline"]
    # Highest priority first.
    assert plan.promotions[0].id == "R050"


def test_a_local_rule_changing_the_constitution_is_reported_not_promoted() -> None:
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL)
    assert [c.id for c in plan.conflicts] == ["R900"]
    assert "constitution" in plan.conflicts[0].reason


def test_a_local_rule_weakening_a_constitution_check_under_a_new_id_is_refused() -> None:
    merged = merged_bundle()
    merged["shards"].append(shard("S-tf", "Ask before `terraform destroy`.", "CLAUDE.local.md:4", origin="local", checks=["S-tf#1"]))
    merged["checks"].append(check("S-tf", 1, ["terraform", "destroy"], verdict="ask"))
    plan = find_promotable(shared_bundle(), merged, LOCAL)
    refused = {c.id: c.reason for c in plan.conflicts}
    assert "weakens constitution rule R900" in refused["S-tf"]


def test_compiler_diagnostics_on_a_local_rule_block_its_promotion() -> None:
    merged = merged_bundle()
    merged["diagnostics"] = [{"level": "error", "source": "CLAUDE.local.md:3", "message": "unknown verb"}]
    plan = find_promotable(shared_bundle(), merged, LOCAL)
    assert "S-deploy" not in {p.id for p in plan.promotions}
    assert any(c.id == "S-deploy" and "unknown verb" in c.reason for c in plan.conflicts)


def test_cap_on_promotions_reports_the_rest() -> None:
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL, max_promotions=1)
    assert [p.id for p in plan.promotions] == ["R050"]
    assert {c.id for c in plan.conflicts} >= {"S-deploy", "R001"}


def test_candidate_has_one_marker_block_and_drops_the_changed_rules_old_line() -> None:
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL)
    out = build_candidate(SHARED, shared_bundle(), plan, generated="2026-01-01T00:00:00Z")
    assert out.count(START_MARKER) == 1 and out.count(END_MARKER) == 1
    assert SECTION_HEADING in out
    assert "- [R001] Never run `git push --force`.\n" not in out
    assert "- [R001] Never run `git push --force` or `git push -f`." in out
    assert "```guidance\n[R050] deny command kubectl delete *" in out
    assert "- Never run `make deploy`.\n  Deploys go through CI." in out
    assert "- Keep commits small." in out and "[R900] Never run `terraform destroy`." in out


def test_a_second_cycle_replaces_the_block_and_keeps_earlier_promotions() -> None:
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL)
    first = build_candidate(SHARED, shared_bundle(), plan, generated="T1")
    span = block_span(first)
    assert span is not None
    lines = first.splitlines()
    deploy_line = next(i for i, line in enumerate(lines) if "make deploy" in line) + 1
    # The bundle of the promoted file: the earlier promotion now lives inside the block.
    promoted = bundle([shard("S-deploy", "Never run `make deploy`. Deploys go through CI.", f"CLAUDE.md:{deploy_line}", checks=["S-deploy#1"])])
    new = find_promotable(
        bundle([]),
        bundle([shard("S-new", "Never run `make nuke`.", "CLAUDE.local.md:1", origin="local", checks=["S-new#1"])], [check("S-new", 1, ["make", "nuke"])]),
        "- Never run `make nuke`.\n",
    )
    second = build_candidate(first, promoted, new, generated="T2")
    assert second.count(START_MARKER) == 1
    assert "generated: T2" in second and "generated: T1" not in second
    assert "- Never run `make deploy`." in second and "- Never run `make nuke`." in second
    assert second.count(SECTION_HEADING) == 1


def test_constitution_rules_go_under_a_safety_heading() -> None:
    merged = bundle(
        [shard("S-c", "Never run `rm -rf data`.", "CLAUDE.local.md:3", origin="local", checks=["S-c#1"], constitution=True)],
        [check("S-c", 1, ["rm", "-rf", "data"])],
    )
    plan = find_promotable(bundle([]), merged, "## Safety\n\n- Never run `rm -rf data`.\n")
    out = build_candidate("# x\n", bundle([]), plan, generated="T")
    assert "### Safety (promoted)\n\n- Never run `rm -rf data`." in out


def test_identical_local_rules_promote_nothing() -> None:
    shared = shared_bundle()
    merged = bundle([dict(s, origin="local", source="CLAUDE.local.md:1") for s in shared["shards"]], shared["checks"])
    plan = find_promotable(shared, merged, "- x\n")
    assert plan.promotions == [] and plan.conflicts == []


# --- with the real compiler ---------------------------------------------------------------

from cf_guidance.policy.compiler import compile_sources  # noqa: E402


def plan_for(shared: str, local: str, **kw):  # type: ignore[no-untyped-def]
    shared_b = compile_sources(shared, None)
    merged_b = compile_sources(shared, local)
    return shared_b, find_promotable(shared_b, merged_b, local, **kw)


def test_real_compiler_promotes_a_local_ban_and_the_candidate_compiles_to_the_same_check() -> None:
    local = "# Mine\n\n## Deploys\n\n- Never run `make deploy`.\n- Keep commits small.\n"
    shared_b, plan = plan_for(SHARED, local)
    assert [p.lines for p in plan.promotions] == [["- Never run `make deploy`."]]
    out = build_candidate(SHARED, shared_b, plan, generated="T")
    cand = compile_sources(out, None)
    checks = [c for c in cand["checks"] if c["rule"] == plan.promotions[0].id]
    assert [(c["kind"], c["verdict"], c["pattern"]) for c in checks] == [("command", "deny", ["make", "deploy"])]
    # Promoting again from the candidate finds nothing new.
    again = find_promotable(cand, compile_sources(out, local), local)
    assert again.promotions == []


def test_real_compiler_machine_rules_and_constitution_overrides() -> None:
    local = (
        "## Safety\n\n- [R900] Avoid `terraform destroy`.\n\n"
        "```guidance\n[R050] deny command kubectl delete * -- use the pipeline\nallow command rm -rf ./build\n```\n"
    )
    shared_b, plan = plan_for(SHARED, local)
    assert [p.id for p in plan.promotions] == ["R050"]
    assert plan.promotions[0].lines == ["[R050] deny command kubectl delete * -- use the pipeline"]
    assert [c.id for c in plan.conflicts] == ["R900"]
    out = build_candidate(SHARED, shared_b, plan, generated="T")
    cand = compile_sources(out, None)
    assert any(c["rule"] == "R050" and c["pattern"][:2] == ["kubectl", "delete"] for c in cand["checks"])
    assert not [d for d in cand["diagnostics"] if d["level"] == "error"]


def test_real_compiler_nested_bullet_is_copied_alone_and_dedented() -> None:
    local = "- Deploy notes:\n  - Never run `make deploy`.\n"
    _, plan = plan_for("# x\n", local)
    lines = sorted(p.lines for p in plan.promotions)
    # The parent stops where its nested item begins; the nested rule stands on its own.
    assert ["- Never run `make deploy`."] in lines
    assert all(len(x) == 1 for x in lines)


def test_crlf_files_keep_their_line_endings() -> None:
    shared = SHARED.replace("\n", "\r\n")
    plan = find_promotable(shared_bundle(), merged_bundle(), LOCAL)
    out = build_candidate(shared, shared_bundle(), plan, generated="T")
    assert "\r\n" in out and "\n" not in out.replace("\r\n", "")
