"""The autopilot: promote the CLAUDE.local.md rules that help into CLAUDE.md, or propose it.

One cycle (`run_cycle`):

1. Lock `<state>/autopilot.lock` (filelock, so a lock held by a dead process is released by
   the kernel and recovered; a live holder makes this cycle skip, reporting its pid).
2. Load CLAUDE.md and CLAUDE.local.md; remember CLAUDE.md's hash.
3. Find the promotable local rules by stable id (`promote.find_promotable`); build the
   candidate with the auto-promotion block; check that every promoted rule compiles to the
   same checks inside CLAUDE.md (a rule that does not is reported and left out).
4. Decide each rule on its own evidence (`RuleDecision`), never on another's: its analyzer
   delta (CLAUDE.md plus that rule alone), its replay over the project's past sessions
   (`evidence.replay_evidence`: what it would have stopped, and whether that work was kept),
   and with the A/B gate on, its own derived probes. An advisory rule (no check) is proposed,
   never applied: nothing can measure it.
5. Apply (`--apply` / `GUIDANCE_AUTOPILOT_APPLY=1`) only the rules whose gates pass; the others
   go into a proposal with the reasons and examples. Shared CLAUDE.md is never rewritten by
   default: users of the anchor, which applies on every session end, complained about exactly that.
6. Apply = backup, atomic write, ADR in the target repo, ledger record. If CLAUDE.md changed
   since step 2 (someone edited it), nothing is written. If anything fails after the write,
   the original is restored from the backup.
7. Always: the report, the state file and one log line.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

import filelock
from pydantic import BaseModel, Field

from cf_guidance._atomic import write_atomic
from cf_guidance.autopilot.ab import ABReport, RuleResult
from cf_guidance.autopilot.analyzer import Analysis, compare, score_bundle
from cf_guidance.autopilot.evidence import ReplayEvidence, RuleEvidence
from cf_guidance.autopilot.promote import MAX_PROMOTIONS, Conflict, Plan, Promotion, build_candidate, find_promotable
from cf_guidance.errors import ConfigError, GuidanceError, PolicyError, StateError
from cf_guidance.state import StateLayout

SHARED_NAME = "CLAUDE.md"
LOCAL_NAME = "CLAUDE.local.md"
LOCK_NAME = "autopilot.lock"
PID_NAME = "autopilot.pid"
#: Written before CLAUDE.md is replaced and removed once the ADR and ledger record exist; found
#: by a later cycle, it means an apply was killed half-way and the original is restored.
JOURNAL_NAME = "autopilot-apply.json"
REPORT_NAME = "autopilot-report.json"
STATE_NAME = "autopilot-state.json"
LOG_NAME = "autopilot.log"
ADR_DIR = Path("docs") / "adr"
#: Spool job kind that carries promotions and rollbacks to the ledger.
LEDGER_KIND = "autopilot"

ENV_ENABLED = "GUIDANCE_AUTOPILOT_ENABLED"
ENV_MIN_DELTA = "GUIDANCE_AUTOPILOT_MIN_DELTA"
ENV_AB = "GUIDANCE_AUTOPILOT_AB"
ENV_MIN_AB_GAIN = "GUIDANCE_AUTOPILOT_MIN_AB_GAIN"
ENV_APPLY = "GUIDANCE_AUTOPILOT_APPLY"
ENV_REPLAY = "GUIDANCE_AUTOPILOT_REPLAY"
ENV_MAX_FP_RATE = "GUIDANCE_AUTOPILOT_MAX_FP_RATE"
#: Share of the actions a rule would have stopped that succeeded and were kept, above which the
#: rule is never applied automatically.
MAX_FALSE_POSITIVE_RATE = 0.2

Decision = Literal[
    "applied", "proposed", "no-promotable", "unchanged", "locked", "disabled", "aborted",
    "rolled-back", "error",
]

#: Runs the A/B benchmark: (baseline text, candidate text, project dir) -> report.
ABRunner = Callable[[str, str, Path], ABReport]


class Settings(BaseModel):
    """One cycle's options: flags win over the environment, which wins over the defaults."""

    project: Path
    apply: bool = False
    ab: bool = False
    min_delta: float = 0.5
    min_ab_gain: float = 0.05
    max_promotions: int = MAX_PROMOTIONS
    enabled: bool = True
    source: str = "manual"
    #: The A/B gate's suite besides the probes derived from the new rules: None = the starter
    #: compliance suite, "derived" = the probes alone; then its executor and repeats.
    ab_suite: Path | Literal["derived"] | None = None
    ab_executor: Literal["scripted", "claude"] = "scripted"
    #: None: once per policy for the scripted executor, 6 independent pairs for the live one.
    ab_repeat: int | None = None
    ab_live: bool = False
    ab_budget_usd: float | None = None
    #: Replay the project's past sessions per rule (the session logs of `replay_paths`, or the
    #: project's own under the clients' config dirs).
    replay: bool = True
    replay_paths: list[str] = []
    max_false_positive_rate: float = MAX_FALSE_POSITIVE_RATE

    @classmethod
    def resolve(cls, project: Path, environ: Mapping[str, str] | None = None, **flags: Any) -> Settings:
        env = os.environ if environ is None else environ
        values: dict[str, Any] = {
            "enabled": _env_bool(env, ENV_ENABLED, True),
            "apply": _env_bool(env, ENV_APPLY, False),
            "ab": _env_bool(env, ENV_AB, False),
            "min_delta": _env_float(env, ENV_MIN_DELTA, 0.5),
            "min_ab_gain": _env_float(env, ENV_MIN_AB_GAIN, 0.05),
            "replay": _env_bool(env, ENV_REPLAY, True),
            "max_false_positive_rate": _env_float(env, ENV_MAX_FP_RATE, MAX_FALSE_POSITIVE_RATE),
        }
        values.update({k: v for k, v in flags.items() if v is not None})
        return cls(project=project.resolve(), **values)


def _env_bool(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = env.get(name, "").strip().lower()
    if not raw:
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise ConfigError(f"{name}={raw!r} is not a boolean; use 1 or 0")


def _env_float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        return float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r} is not a number; use e.g. 0.5") from None


Enforcement = Literal["enforced", "warns", "advisory"]


def enforcement_of(promotion: Promotion) -> Enforcement:
    """What a promoted rule does: deny or ask (enforced), only warn, or nothing (advisory)."""
    verdicts = {str(c.get("verdict")) for c in promotion.checks}
    return "enforced" if verdicts & {"deny", "ask"} else "warns" if verdicts else "advisory"


class RuleDecision(BaseModel):
    """One rule's own evidence and what the cycle does with it."""

    id: str
    text: str
    enforcement: Enforcement
    apply: bool = Field(description="every gate passed on this rule's own evidence")
    reasons: list[str] = []
    delta: float | None = Field(default=None, description="analyzer delta of CLAUDE.md plus this rule alone")
    replay: RuleEvidence | None = None
    ab: RuleResult | None = None

    def hold(self, reason: str) -> None:
        self.apply = False
        self.reasons.append(reason)


class CycleReport(BaseModel):
    """What one cycle did and why; written to `<state>/autopilot-report.json`."""

    started: str
    source: str
    decision: Decision
    reasons: list[str] = []
    promotions: list[Promotion] = []
    conflicts: list[Conflict] = []
    rules: list[RuleDecision] = []
    applied: list[str] = Field(default_factory=list, description="ids of the rules written into CLAUDE.md")
    replay: ReplayEvidence | None = None
    before: Analysis | None = None
    after: Analysis | None = None
    delta: float | None = None
    ab: ABReport | None = None
    ab_error: str = ""
    candidate_hash: str = ""
    proposal: str = ""
    backup: str = ""
    adr: str = ""
    ledger: str = ""

    def line(self) -> str:
        parts = [self.started, self.source, self.decision]
        if self.delta is not None:
            parts.append(f"delta={self.delta:+.1f}")
        if self.ab is not None:
            parts.append(f"ab={self.ab.mode} gain={self.ab.deltaGain:+.3f}" + (f" p={self.ab.test.p_value:.4g}" if self.ab.test else ""))
        if self.promotions:
            parts.append("rules=" + ",".join(p.id for p in self.promotions))
        if self.applied:
            parts.append("applied=" + ",".join(self.applied))
        parts += self.reasons
        return " ".join(parts)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _stamp() -> str:
    ns = time.time_ns()
    return time.strftime("%Y%m%dT%H%M%S", time.gmtime(ns // 1_000_000_000)) + f"{ns // 1000 % 1_000_000:06d}Z"


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _json(value: Any) -> bytes:
    import json

    return (json.dumps(value, indent=2) + "\n").encode("utf-8")


def _read(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` (readers see old or new), creating its directory if needed."""
    write_atomic(path, data, parent_mode=0o777)


def _compile(shared: str, local: str | None, root: Path) -> dict[str, Any]:
    from cf_guidance.policy.compiler import compile_sources

    return compile_sources(shared, local, root=str(root), strict=False)


def _errors(bundle: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [
        d for d in bundle.get("diagnostics", [])
        if d.get("level") == "error" and str(d.get("source", "")).startswith(name + ":")
    ]


def _signature(bundle: dict[str, Any], rule: str) -> list[tuple[str, str, str]]:
    return sorted(
        (str(c.get("kind")), str(c.get("verdict")), repr(c.get("pattern")) + repr(c.get("before")))
        for c in bundle.get("checks", [])
        if c.get("rule") == rule
    )


class Autopilot:
    """Runs cycles for one project. `ab_runner` and `record` are injectable for tests."""

    def __init__(
        self,
        settings: Settings,
        *,
        ab_runner: ABRunner | None = None,
        record: Callable[[str, dict[str, Any]], str] | None = None,
    ) -> None:
        self.settings = settings
        self.project = settings.project
        self.layout = StateLayout.for_project(str(self.project))
        self.state_root = Path(self.layout.root)
        self.ab_runner = ab_runner or self._headless_ab
        self.record = record or self._record_in_ledger

    # -- paths ---------------------------------------------------------------------------
    @property
    def shared_path(self) -> Path:
        return self.project / SHARED_NAME

    @property
    def local_path(self) -> Path:
        return self.project / LOCAL_NAME

    def _ensure_dirs(self) -> None:
        for directory in (self.state_root, Path(self.layout.proposals), Path(self.layout.backups), Path(self.layout.logs)):
            directory.mkdir(parents=True, exist_ok=True, mode=0o700)

    def _acquire(self, report: CycleReport, busy: str) -> filelock.FileLock | None:
        """Take the autopilot lock, or record on `report` that a live autopilot holds it."""
        try:
            self._ensure_dirs()
        except OSError as exc:
            raise StateError(f"cannot create the autopilot state in {self.state_root}: {exc.strerror or exc}") from None
        lock = filelock.FileLock(str(self.state_root / LOCK_NAME))
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            report.decision = "locked"
            report.reasons.append(f"another autopilot (pid {self._holder()}) {busy}")
            self._log(report)
            return None
        return lock

    # -- the cycle -----------------------------------------------------------------------
    def run_cycle(self) -> CycleReport:
        report = CycleReport(started=_now(), source=self.settings.source, decision="error")
        if not self.settings.enabled and self.settings.source != "manual":
            report.decision = "disabled"
            report.reasons.append(f"{ENV_ENABLED}=0")
            return report
        lock = self._acquire(report, f"holds {LOCK_NAME}; cycle skipped")
        if lock is None:
            return report
        try:
            (self.state_root / PID_NAME).write_text(str(os.getpid()), encoding="utf-8")
            try:
                self._recover(report)
                self._cycle(report)
            except GuidanceError as exc:
                report.decision = "error"
                report.reasons.append(str(exc))
            self._finish(report)
            return report
        finally:
            (self.state_root / PID_NAME).unlink(missing_ok=True)
            lock.release()

    def _holder(self) -> str:
        try:
            return (self.state_root / PID_NAME).read_text(encoding="utf-8").strip() or "?"
        except OSError:
            return "?"

    def _cycle(self, report: CycleReport) -> None:
        shared_bytes = _read(self.shared_path)
        local_bytes = _read(self.local_path)
        if local_bytes is None:
            report.decision = "no-promotable"
            report.reasons.append(f"no {LOCAL_NAME}")
            return
        before_hash = _sha(shared_bytes or b"")
        try:
            shared = (shared_bytes or b"").decode("utf-8")
        except UnicodeDecodeError as exc:
            report.reasons.append(
                f"{SHARED_NAME} is not valid UTF-8 (byte {exc.start}); rewriting it would change those bytes, nothing changed"
            )
            return
        local = local_bytes.decode("utf-8", errors="replace")
        try:
            shared_bundle = _compile(shared, None, self.project)
        except PolicyError as exc:
            report.reasons.append(f"{SHARED_NAME} does not compile: {exc}; fix it first, nothing changed")
            return
        try:
            merged_bundle = _compile(shared, local, self.project)
        except PolicyError as exc:
            report.reasons.append(f"{LOCAL_NAME} does not compile: {exc}; nothing changed")
            return
        local_errors = _errors(merged_bundle, LOCAL_NAME)
        if local_errors:
            first = local_errors[0]
            report.reasons.append(
                f"{LOCAL_NAME} has {len(local_errors)} compile error(s), first {first.get('source')}: "
                f"{first.get('message')}; fix them (see `cf-guidance compile`), nothing changed"
            )
            return
        plan = find_promotable(shared_bundle, merged_bundle, local, max_promotions=self.settings.max_promotions)
        candidate, plan, candidate_bundle = self._candidate(shared, shared_bundle, merged_bundle, plan)
        report.promotions, report.conflicts = plan.promotions, plan.conflicts
        if not plan.promotions:
            report.decision = "no-promotable"
            report.reasons.append("no new or changed local rule can be promoted")
            return
        # Identity of the candidate without its timestamp: the base file and the promoted lines.
        identity = before_hash + "".join(p.id + "\n".join(p.lines) for p in plan.promotions)
        report.candidate_hash = _sha(identity.encode("utf-8"))[:16]
        state = self._load_state()
        if state.get("lastCandidateHash") == report.candidate_hash and state.get("lastDecision") == "proposed" and not self.settings.apply:
            report.decision = "unchanged"
            report.reasons.append(f"same candidate as the last proposal ({state.get('lastProposal', '')})")
            return
        report.before = score_bundle(shared, shared_bundle)
        report.after = score_bundle(candidate, candidate_bundle)
        report.delta = compare(report.before, report.after)["delta"]
        singles = {p.id: self._single(shared, shared_bundle, p) for p in plan.promotions}
        report.rules = [RuleDecision(id=p.id, text=p.text, enforcement=enforcement_of(p), apply=True) for p in plan.promotions]
        for decision in report.rules:
            text, bundle = singles[decision.id]
            decision.delta = compare(report.before, score_bundle(text, bundle))["delta"]
            if decision.enforcement == "advisory":
                decision.hold("advisory: it compiles to no check, so neither replay nor an A/B can measure it and it "
                              f"would enforce nothing; proposed only (promote it by hand if you want it in {SHARED_NAME})")
            elif decision.delta < self.settings.min_delta:
                decision.hold(f"analyzer delta {decision.delta:+.1f} < min-delta {self.settings.min_delta}")
        if self.settings.replay:
            self._replay_gate(report, shared_bundle, singles)
        if self.settings.ab:
            self._ab_gate(report, shared, shared_bundle, plan)
        passing = [p for p, d in zip(plan.promotions, report.rules) if d.apply]
        held = [d for d in report.rules if not d.apply]
        for decision in held:
            report.reasons.append(f"{decision.id} not applied: " + "; ".join(decision.reasons))
        if not self.settings.apply:
            report.reasons.append(f"not applied: run with --apply (or {ENV_APPLY}=1) to rewrite {SHARED_NAME}")
        if not self.settings.apply or held:
            self._propose(report, before_hash, candidate)
            if report.decision == "aborted":
                return
        if self.settings.apply and passing:
            if held:
                candidate = build_candidate(shared, shared_bundle, Plan(promotions=passing, conflicts=plan.conflicts),
                                            generated=_now(), source=LOCAL_NAME)
            report.applied = [p.id for p in passing]
            self._apply(report, shared_bytes, before_hash, candidate)

    def _single(self, shared: str, shared_bundle: dict[str, Any], promotion: Promotion) -> tuple[str, dict[str, Any]]:
        """CLAUDE.md plus this one rule, and its bundle: the rule's own evidence, apart from the others."""
        text = build_candidate(shared, shared_bundle, Plan(promotions=[promotion], conflicts=[]), generated=_now(),
                               source=LOCAL_NAME)
        return text, _compile(text, None, self.project)

    def _replay_gate(self, report: CycleReport, shared_bundle: dict[str, Any], singles: dict[str, tuple[str, dict[str, Any]]]) -> None:
        """Replay the project's past sessions under each enforcing rule alone (`evidence`)."""
        from cf_guidance.autopilot.evidence import replay_evidence

        measured = [d for d in report.rules if d.enforcement != "advisory"]
        report.replay = replay_evidence(shared_bundle, [(d.id, singles[d.id][1]) for d in measured], self.project,
                                        paths=self.settings.replay_paths)
        limit = self.settings.max_false_positive_rate
        for decision in measured:
            evidence = report.replay.for_rule(decision.id)
            decision.replay = evidence
            rate = evidence.false_positive_rate if evidence is not None else None
            if evidence is not None and rate is not None and rate > limit:
                kept = [e for e in evidence.examples if e.outcome.startswith("succeeded, kept")][:3]
                decision.hold(f"{evidence.line()}; {rate:.0%} likely false positives > max {limit:.0%}, e.g. "
                              + "; ".join(f"{e.call} ({e.link})" for e in kept))

    def _candidate(
        self, shared: str, shared_bundle: dict[str, Any], merged_bundle: dict[str, Any], plan: Plan
    ) -> tuple[str, Plan, dict[str, Any]]:
        """Build the candidate; leave out (and report) rules that do not compile the same in it."""
        while True:
            candidate = build_candidate(shared, shared_bundle, plan, generated=_now(), source=LOCAL_NAME)
            bundle = _compile(candidate, None, self.project)
            added = len(_errors(bundle, SHARED_NAME)) - len(_errors(shared_bundle, SHARED_NAME))
            if added > 0:
                failed = [
                    Conflict(id=p.id, source=p.source, reason=f"the candidate {SHARED_NAME} gets {added} new compile error(s)")
                    for p in plan.promotions
                ]
                return shared, Plan(promotions=[], conflicts=plan.conflicts + failed), bundle
            ids = {s["id"] for s in bundle.get("shards", [])}
            broken = [
                p for p in plan.promotions
                if p.id not in ids or _signature(bundle, p.id) != _signature(merged_bundle, p.id)
            ]
            if not broken:
                return candidate, plan, bundle
            plan = Plan(
                promotions=[p for p in plan.promotions if p not in broken],
                conflicts=plan.conflicts
                + [Conflict(id=p.id, source=p.source, reason=f"does not compile to the same checks in {SHARED_NAME}") for p in broken],
            )
            if not plan.promotions:
                return shared, plan, bundle

    def _headless_ab(self, shared: str, candidate: str, project: Path) -> ABReport:
        """The A/B gate through the headless runner; reports land in `<state>/ab/<stamp>/`."""
        from cf_guidance.autopilot.ab import run_policy_ab, write_reports

        out = self.state_root / "ab" / _stamp()
        report = run_policy_ab(
            shared,
            candidate,
            suite_path=self.settings.ab_suite,
            executor=self.settings.ab_executor,
            repeat=self.settings.ab_repeat,
            work_dir=out / "work",
            names=(SHARED_NAME, "candidate"),
            live=self.settings.ab_live,
            budget_usd=self.settings.ab_budget_usd,
        )
        write_reports(report, out)
        return report

    def _ab_gate(self, report: CycleReport, shared: str, shared_bundle: dict[str, Any], plan: Plan) -> None:
        """A/B the rules still in the running together; each is judged by its own probes only.

        Deterministic (scripted): a rule passes when every probe derived from it is stopped
        under the candidate and allowed under the baseline, and its look-alikes still run.
        Stochastic (live): when its probes' pairs gain at least min-ab-gain and lose none.
        A regression in any other task, a run that failed to happen, or no valid pair holds
        every rule: a loss cannot be pinned on one of them.
        """
        testing = [p for p, d in zip(plan.promotions, report.rules) if d.apply]
        if not testing:
            return
        candidate = build_candidate(shared, shared_bundle, Plan(promotions=testing, conflicts=[]), generated=_now(),
                                    source=LOCAL_NAME)
        tested = [d for d in report.rules if d.apply]
        try:
            report.ab = ab = self.ab_runner(shared, candidate, self.project)
        except GuidanceError as exc:
            report.ab_error = str(exc)
            for decision in tested:
                decision.hold(f"A/B suite failed to run: {exc}")
            return
        blocking = []
        if ab.regressions:
            why = next(
                (f" ({r.task} #{r.repeat + 1}: {r.failures[0]})" for r in ab.runs
                 if r.arm == "candidate" and r.task in ab.regressions and r.failures),
                "",
            )
            blocking.append("A/B regressions: " + ", ".join(ab.regressions) + why)
        if not any(t.task for t in ab.tasks):
            blocking.append("A/B: no valid pairs")
        for decision in tested:
            for reason in blocking:
                decision.hold(reason)
            result = decision.ab = next((r for r in ab.rules if r.rule == decision.id), None)
            if result is None:
                unprobed = [u for u in ab.unprobed if u.startswith(decision.id + ":")]
                decision.hold("no A/B evidence: " + (unprobed[0].split(": ", 1)[1] if unprobed else "no probe was derived from it"))
            elif ab.mode == "deterministic":
                if result.stopped < result.attempts or not result.attempts:
                    decision.hold(f"A/B: the candidate stops {result.stopped} of its {result.attempts} probes that the baseline allows")
                if result.lookalikes_run < result.lookalikes:
                    decision.hold(f"A/B: {result.lookalikes - result.lookalikes_run} of its look-alikes are blocked")
            else:
                gain = (result.gained - result.lost) / result.pairs if result.pairs else 0.0
                if gain < self.settings.min_ab_gain or result.lost:
                    decision.hold(f"A/B: its probes gain {gain:+.3f} ({result.gained} gained, {result.lost} lost of "
                                  f"{result.pairs} pairs) < min-ab-gain {self.settings.min_ab_gain}")

    # -- outcomes ------------------------------------------------------------------------
    def _changed_since(self, before_hash: str) -> bool:
        return _sha(_read(self.shared_path) or b"") != before_hash

    def _abort_if_changed(self, report: CycleReport, before_hash: str) -> bool:
        if self._changed_since(before_hash):
            report.decision = "aborted"
            report.reasons.append(f"{SHARED_NAME} was edited while the autopilot ran; nothing written, try again")
            return True
        return False

    def _propose(self, report: CycleReport, before_hash: str, candidate: str) -> None:
        if self._abort_if_changed(report, before_hash):
            return
        path = Path(self.layout.proposals) / f"CLAUDE.promoted.{_stamp()}.md"
        atomic_write(path, candidate.encode("utf-8"))
        report.proposal = str(path)
        report.decision = "proposed"
        report.ledger = self._safe_record(report, {"action": "propose", "proposal": str(path)})

    def _apply(self, report: CycleReport, original: bytes | None, before_hash: str, candidate: str) -> None:
        if self._abort_if_changed(report, before_hash):
            return
        backups = Path(self.layout.backups)
        stamp = _stamp()
        backup = backups / (f"CLAUDE.md.{stamp}.bak" if original is not None else f"CLAUDE.md.{stamp}.absent")
        atomic_write(backup, original or b"")
        report.backup = str(backup)
        if self._abort_if_changed(report, before_hash):
            backup.unlink(missing_ok=True)
            report.backup = ""
            return
        journal = self.state_root / JOURNAL_NAME
        after_hash = _sha(candidate.encode("utf-8"))
        atomic_write(journal, _json({"backup": str(backup), "sha256_before": before_hash, "sha256_after": after_hash}))
        atomic_write(self.shared_path, candidate.encode("utf-8"))
        try:
            report.adr = str(self._write_adr(report))
        except BaseException:
            self._restore(original)
            journal.unlink(missing_ok=True)
            raise
        report.decision = "applied"
        journal.unlink(missing_ok=True)
        report.ledger = self._safe_record(
            report,
            {
                "action": "promote",
                "rules": report.applied,
                "backup": report.backup,
                "adr": report.adr,
                "sha256_before": before_hash,
                "sha256_after": after_hash,
                "delta": report.delta,
                "deltaGain": report.ab.deltaGain if report.ab else None,
            },
        )

    def _recover(self, report: CycleReport) -> None:
        """Finish off an apply that was killed between writing CLAUDE.md and its ADR."""
        journal = self.state_root / JOURNAL_NAME
        raw = _read(journal)
        if raw is None:
            return
        import json

        try:
            entry = json.loads(raw)
            backup = Path(entry["backup"])
            before, after = str(entry["sha256_before"]), str(entry["sha256_after"])
        except (ValueError, KeyError, TypeError):
            journal.unlink(missing_ok=True)
            report.reasons.append(f"ignored an unreadable {JOURNAL_NAME}")
            return
        current = _sha(_read(self.shared_path) or b"")
        if current == after and backup.exists():
            self._restore(backup.read_bytes() if backup.suffix == ".bak" else None)
            backup.rename(backup.with_name(backup.name + ".restored"))
            report.reasons.append(f"an earlier apply was interrupted; restored {SHARED_NAME} from {backup.name}")
        elif current != before:
            report.reasons.append(f"an earlier apply was interrupted and {SHARED_NAME} was edited since; left as it is")
        journal.unlink(missing_ok=True)

    def _restore(self, original: bytes | None) -> None:
        if original is None:
            self.shared_path.unlink(missing_ok=True)
        else:
            atomic_write(self.shared_path, original)

    def _write_adr(self, report: CycleReport) -> Path:
        directory = self.project / ADR_DIR
        directory.mkdir(parents=True, exist_ok=True)
        numbers = [int(m.group(1)) for p in directory.glob("ADR-*.md") if (m := re.match(r"ADR-(\d+)", p.name))]
        number = max(numbers, default=0) + 1
        first = next((p.text for p in report.promotions if p.id in report.applied), "rules")
        slug = "promote-" + "-".join(re.findall(r"[a-z0-9]+", first.lower()))[:48].strip("-")
        path = directory / f"ADR-{number:03d}-{slug}.md"
        atomic_write(path, render_adr(number, report, self.settings).encode("utf-8"))
        return path

    def _record_in_ledger(self, kind: str, payload: dict[str, Any]) -> str:
        from cf_guidance.jobs import spool

        job = spool.enqueue(str(self.state_root), kind, payload)
        spool.spawn_worker(str(self.project), str(self.state_root))
        return job

    def _safe_record(self, report: CycleReport, payload: dict[str, Any]) -> str:
        payload = {"source": report.source, "started": report.started, **payload}
        try:
            return self.record(LEDGER_KIND, payload)
        except GuidanceError as exc:
            report.reasons.append(f"ledger: {exc}")
            return ""

    # -- record keeping ------------------------------------------------------------------
    def _load_state(self) -> dict[str, Any]:
        import json

        try:
            value = json.loads((self.state_root / STATE_NAME).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return value if isinstance(value, dict) else {}

    def _finish(self, report: CycleReport) -> None:
        atomic_write(self.state_root / REPORT_NAME, (report.model_dump_json(indent=2) + "\n").encode("utf-8"))
        state = self._load_state()
        state.update(
            {
                "lastRun": report.started,
                "lastDecision": report.decision,
                "lastCandidateHash": report.candidate_hash or state.get("lastCandidateHash", ""),
                "lastDelta": report.delta,
            }
        )
        if report.decision == "applied":
            state["lastApplied"] = report.started
            state["lastAdr"] = report.adr
        if report.proposal:
            state["lastProposal"] = report.proposal
        atomic_write(self.state_root / STATE_NAME, _json(state))
        self._log(report)

    def _log(self, report: CycleReport) -> None:
        with open(Path(self.layout.logs) / LOG_NAME, "a", encoding="utf-8") as handle:
            handle.write(report.line() + "\n")

    # -- rollback ------------------------------------------------------------------------
    def rollback(self) -> CycleReport:
        """Restore CLAUDE.md from the newest backup (consumed, so a second rollback goes further back)."""
        report = CycleReport(started=_now(), source="rollback", decision="error")
        lock = self._acquire(report, "is running; try again")
        if lock is None:
            return report
        try:
            backups = sorted(
                (p for p in Path(self.layout.backups).glob("CLAUDE.md.*") if p.suffix in (".bak", ".absent")),
                key=lambda p: p.name,
            )
            if not backups:
                raise StateError(f"no autopilot backup in {self.layout.backups}; nothing to roll back")
            latest = backups[-1]
            current = _read(self.shared_path)
            if current is not None:
                atomic_write(Path(self.layout.backups) / f"CLAUDE.md.{_stamp()}.pre-rollback", current)
            self._restore(latest.read_bytes() if latest.suffix == ".bak" else None)
            latest.rename(latest.with_name(latest.name + ".restored"))
            report.decision = "rolled-back"
            report.backup = str(latest)
            report.reasons.append(f"restored {SHARED_NAME} from {latest.name}")
            report.ledger = self._safe_record(
                report,
                {"action": "rollback", "backup": str(latest), "sha256_before": _sha(current or b""), "sha256_after": _sha(_read(self.shared_path) or b"")},
            )
            self._log(report)
            return report
        finally:
            lock.release()


def _rule_effect(decision: RuleDecision) -> str:
    return {"enforced": "denies or asks", "warns": "only warns", "advisory": "advisory"}[decision.enforcement]


def _ab_line(result: RuleResult | None, ab: ABReport) -> str:
    if result is None:
        return "no probe"
    if ab.mode == "deterministic":
        return (f"stops {result.stopped} of {result.attempts} probes the baseline allows; "
                f"{result.lookalikes_run} of {result.lookalikes} look-alikes run")
    return f"{result.gained} gained, {result.lost} lost of {result.pairs} independent pairs"


def render_adr(number: int, report: CycleReport, settings: Settings) -> str:
    """The decision record of one promotion: what changed, each rule's own evidence, what it does."""
    decisions = {d.id: d for d in report.rules}
    applied = [p for p in report.promotions if p.id in report.applied]
    rules = "\n".join(f"- `{p.id}` ({p.status}, from `{p.source}`; {_rule_effect(decisions[p.id])}): {p.text}" for p in applied)
    held = [f"- `{d.id}`: {'; '.join(d.reasons)}" for d in report.rules if not d.apply]
    conflicts = held + [f"- `{c.id}` (`{c.source}`): {c.reason}" for c in report.conflicts] or ["- none"]
    lines = [
        f"# ADR-{number:03d}: Promote local guidance rules into {SHARED_NAME}",
        "",
        "- Status: Accepted",
        f"- Date: {report.started}",
        f"- Decided by: cf-guidance autopilot ({report.source}, --apply)",
        "",
        "## Context",
        "",
        f"These rules were tried in `{LOCAL_NAME}` and are new or changed compared with `{SHARED_NAME}`. Each was "
        "decided on its own evidence (CLAUDE.md plus that rule alone), never on another rule's.",
        "",
        "## Decision",
        "",
        f"Promote them into the auto-promotion block of `{SHARED_NAME}`:",
        "",
        rules,
        "",
        "Not promoted:",
        "",
        *conflicts,
        "",
        "## Measured effect",
        "",
    ]
    if report.before and report.after:
        lines.append(f"- Analyzer, all promotable rules: {report.before.composite:.1f} ({report.before.grade}) -> "
                     f"{report.after.composite:.1f} ({report.after.grade}), delta {report.delta:+.1f}")
    if report.replay is not None:
        lines.append(f"- {report.replay.line()}")
    if report.ab is not None:
        lines.append(f"- {report.ab.summary_line()}")
    else:
        lines.append("- A/B: not run (enable with --ab or GUIDANCE_AUTOPILOT_AB=1)")
    for promotion in applied:
        decision = decisions[promotion.id]
        parts = [f"analyzer delta {decision.delta:+.1f} (threshold {settings.min_delta})" if decision.delta is not None else ""]
        if decision.replay is not None:
            parts.append(decision.replay.line())
        if report.ab is not None:
            parts.append("A/B: " + _ab_line(decision.ab, report.ab))
        lines.append(f"- `{promotion.id}`: " + "; ".join(p for p in parts if p))
    enforced = [f"`{p.id}`" for p in applied if decisions[p.id].enforcement == "enforced"]
    warns = [f"`{p.id}`" for p in applied if decisions[p.id].enforcement == "warns"]
    lines += ["", "## Consequences", ""]
    if enforced:
        lines.append(f"{', '.join(enforced)} deny (or ask about) the tool calls they match, for everyone using this "
                     "repository's hooks.")
    if warns:
        lines.append(f"{', '.join(warns)} only warn: the agent is told, nothing is stopped.")
    lines += [
        f"Backup of the previous `{SHARED_NAME}`: `{report.backup}`; undo with `cf-guidance autopilot rollback`.",
        "",
    ]
    return "\n".join(lines)


def parse_interval(text: str) -> float:
    """`30m`, `90s`, `2h`, `1d` or plain seconds -> seconds."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smhd]?)\s*", text)
    if not match:
        raise ConfigError(f"interval {text!r} is not understood; use e.g. 30m, 90s, 2h")
    value = float(match.group(1)) * {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}[match.group(2)]
    if value <= 0:
        raise ConfigError("the interval must be positive")
    return value


def run_daemon(
    autopilot: Autopilot,
    interval_s: float,
    *,
    max_cycles: int | None = None,
    sleep: Callable[[float], None] = time.sleep,
    on_cycle: Callable[[CycleReport], None] | None = None,
    on_error: Callable[[BaseException], None] | None = None,
) -> int:
    """Run a cycle every `interval_s` seconds until interrupted (or `max_cycles`); return cycles run.

    A cycle that raises (after restoring CLAUDE.md, see `_apply`) is reported to `on_error`
    and the daemon goes on: one bad cycle must not end the loop.
    """
    cycles = 0
    while max_cycles is None or cycles < max_cycles:
        try:
            report = autopilot.run_cycle()
        except Exception as exc:
            if on_error is None:
                raise
            on_error(exc)
        else:
            if on_cycle is not None:
                on_cycle(report)
        cycles += 1
        if max_cycles is not None and cycles >= max_cycles:
            break
        sleep(interval_s)
    return cycles
