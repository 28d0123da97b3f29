"""The errors a user of cf-guidance can meet.

Hierarchy::

    GuidanceError                 base: one line, what is wrong and what to do
     ├─ PolicyError               a CLAUDE.md / guidance block cannot be compiled (names file:line)
     ├─ EventError                a hook event is not valid JSON of the expected shape
     ├─ ConfigError               a settings file, environment variable or option is invalid
     ├─ StateError                the state directory, key file, cache or spool cannot be used
     │   └─ LedgerError           the ledger cannot be read or appended
     │       └─ LedgerIntegrityError   verification found tampering or a torn record
     ├─ InstallError              init / verify / uninstall cannot proceed
     ├─ SuiteError                a headless suite file is invalid (names file:line)
     └─ RunnerError               an executor could not run (missing binary, dead server)

Only the CLI maps these to exit codes; the library never calls sys.exit.
"""

from __future__ import annotations


class GuidanceError(Exception):
    """Base class: the message is one line saying what is wrong and what to do."""

    exit_code = 1


class PolicyError(GuidanceError):
    """A policy source cannot be compiled; the message names file:line."""

    exit_code = 2


class EventError(GuidanceError):
    """A hook event is not valid JSON of the expected shape."""

    exit_code = 2


class ConfigError(GuidanceError):
    """A setting, environment variable or command-line option is invalid."""

    exit_code = 2


class StateError(GuidanceError):
    """The state directory, key file, cache or spool cannot be used."""


class LedgerError(StateError):
    """The ledger cannot be read or appended."""


class LedgerIntegrityError(LedgerError):
    """Verification found a record that does not chain, hash or sign correctly."""


class InstallError(GuidanceError):
    """init, verify or uninstall cannot proceed."""


class SuiteError(GuidanceError):
    """A headless suite file is invalid; the message names file:line."""

    exit_code = 2


class RunnerError(GuidanceError):
    """An executor could not run a task (missing binary, dead model server, ...)."""

    exit_code = 2
