"""The live A/B: the real model, at a real price. Nothing runs without `--live`, a budget and a
preflight: credentials present, the endpoint answers, and an estimate of requests and cost.

The estimate is the client's own: one run of the suite's first scripted task with the scripted
executor (the real `claude`, free) reports the turns it took and what Claude Code's price table
says those requests would cost (`total_cost_usd`); times the number of runs. A live model can
take more or fewer turns, so it is an estimate; the budget is what stops the run.
"""

from __future__ import annotations

import os
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from typing import NamedTuple

from pydantic import BaseModel

from cf_guidance.errors import ConfigError, RunnerError
from cf_guidance.headless.executors import AUTH_VARIABLES

DEFAULT_ENDPOINT = "https://api.anthropic.com"
#: Seconds the endpoint has to answer the preflight.
PREFLIGHT_TIMEOUT_S = 10.0


class Calibration(NamedTuple):
    """One scripted run of a task: the model requests it took and the client's price for them."""

    requests: int
    cost_usd: float


class LivePreflight(BaseModel):
    credentials: str
    endpoint: str
    answered: str
    runs: int
    estimated_requests: int | None
    estimated_cost_usd: float | None
    basis: str
    budget_usd: float

    def line(self) -> str:
        estimate = (f"about {self.estimated_requests} model requests, about ${self.estimated_cost_usd:.2f}"
                    if self.estimated_cost_usd is not None else "no estimate")
        return (f"live preflight: {self.credentials} set; {self.endpoint} answered ({self.answered}); "
                f"{self.runs} runs, {estimate} ({self.basis}); budget ${self.budget_usd:.2f}")


def require_live(executor: str, live: bool, budget_usd: float | None) -> None:
    """The live executor needs both `--live` and `--budget-usd`; the scripted one neither."""
    if executor == "claude":
        if not live:
            raise ConfigError("--executor claude runs the real model and costs money; add --live and --budget-usd N "
                              "(or use the scripted executor)")
        if budget_usd is None or budget_usd <= 0:
            raise ConfigError("a live A/B needs --budget-usd N (a positive number of dollars); the run stops when it is spent")
    elif live or budget_usd is not None:
        raise ConfigError("--live and --budget-usd are for --executor claude; the scripted executor costs nothing")


def credentials(environ: Mapping[str, str]) -> str:
    found = next((name for name in AUTH_VARIABLES if environ.get(name)), None)
    if found is None:
        raise RunnerError(f"a live A/B needs credentials: set one of {', '.join(AUTH_VARIABLES)}")
    return found


def endpoint_answers(endpoint: str, credential: str, environ: Mapping[str, str], timeout: float = PREFLIGHT_TIMEOUT_S) -> str:
    """"HTTP <status>" of a GET /v1/models with the credential; RunnerError when the endpoint
    does not answer or rejects the credential."""
    value = environ[credential]
    auth = {"x-api-key": value} if credential == "ANTHROPIC_API_KEY" else {"authorization": f"Bearer {value}"}
    request = urllib.request.Request(endpoint.rstrip("/") + "/v1/models", headers={**auth, "anthropic-version": "2023-06-01"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status = int(response.status)
    except urllib.error.HTTPError as exc:
        status = exc.code
    except (urllib.error.URLError, OSError) as exc:
        reason = getattr(exc, "reason", exc)
        raise RunnerError(f"the model endpoint {endpoint} does not answer ({reason}); check ANTHROPIC_BASE_URL and the network") from None
    if status in (401, 403):
        raise RunnerError(f"the model endpoint {endpoint} rejected the credentials in {credential} (HTTP {status}); check them")
    return f"HTTP {status}"


def preflight(
    runs: int,
    budget_usd: float,
    *,
    calibrate: Callable[[], Calibration | None],
    environ: Mapping[str, str] | None = None,
) -> LivePreflight:
    """Check credentials and endpoint, then estimate requests and cost from one scripted run."""
    env = os.environ if environ is None else environ
    credential = credentials(env)
    endpoint = env.get("ANTHROPIC_BASE_URL") or DEFAULT_ENDPOINT
    answered = endpoint_answers(endpoint, credential, env)
    measured = calibrate()
    if measured is None:
        return LivePreflight(credentials=credential, endpoint=endpoint, answered=answered, runs=runs,
                             estimated_requests=None, estimated_cost_usd=None,
                             basis="no scripted task to measure a run on", budget_usd=budget_usd)
    return LivePreflight(
        credentials=credential, endpoint=endpoint, answered=answered, runs=runs,
        estimated_requests=runs * measured.requests, estimated_cost_usd=round(runs * measured.cost_usd, 4),
        basis=f"a scripted run of the first task took {measured.requests} requests, ${measured.cost_usd:.4f} "
              "by Claude Code's price table", budget_usd=budget_usd,
    )
