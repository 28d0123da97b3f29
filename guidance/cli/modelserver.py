"""`cf-guidance model-server`: serve a scripted Anthropic Messages API on 127.0.0.1."""

from __future__ import annotations

import signal
from pathlib import Path
from types import FrameType

import click


@click.command("model-server")
@click.option(
    "--script",
    "script_path",
    required=True,
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    help="YAML or JSON file of scripted assistant turns (docs/model-server.md).",
)
@click.option("--port", default=0, show_default=True, help="Port on 127.0.0.1; 0 picks a free one.")
@click.option(
    "--log",
    "log_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Append each request (and the tool results it carried) here as JSON lines.",
)
def model_server_cmd(script_path: Path, port: int, log_path: Path | None) -> None:
    """Replay scripted model turns to a real client: point ANTHROPIC_BASE_URL at the URL printed."""
    from cf_guidance.modelserver import ModelServer

    server = ModelServer(script_path, port=port, log_path=log_path)

    def _terminate(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    with server:
        previous = signal.signal(signal.SIGTERM, _terminate)
        try:
            # The URL tells the caller the server is ready, so a SIGTERM may follow it at once:
            # it must be announced where that signal already means a clean stop.
            click.echo(server.url, nl=True)
            server.wait()
        except KeyboardInterrupt:
            pass
        finally:
            signal.signal(signal.SIGTERM, previous)
