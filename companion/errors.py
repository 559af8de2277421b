"""Every error the companion raises on purpose.

Each class also inherits the builtin it resembles, so callers may catch either
(``except ValueError`` still works). Each carries a stable ``code`` for the pages
and the status LEDs, and a message that quotes the input and the state it broke.
"""


class CompanionError(Exception):
    """Base of every error the companion raises on purpose."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None):
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0]) if self.args else ""

    def to_json(self) -> dict:
        return {"error": self.code, "message": self.message}


class ConfigError(CompanionError, ValueError):
    """The configuration file or a setting in it is wrong."""

    code = "config/invalid"


class IllegalAction(CompanionError, ValueError):
    """An action breaks a rule of the game; the log is left unchanged."""

    code = "action/illegal"


class StaleAction(CompanionError, ValueError):
    """An action was made against a state that has since moved on."""

    code = "action/stale"


class NothingToUndo(CompanionError, ValueError):
    """Undo or redo was asked for, but there is nothing to take back or restore."""

    code = "action/nothing_to_undo"


class BadBoard(CompanionError, ValueError):
    """A board or map file is malformed; the message names the offending cell."""

    code = "board/invalid"


class UnknownGame(CompanionError, LookupError):
    """No game or session by that name."""

    code = "game/unknown"


class StorageError(CompanionError, OSError):
    """The event store could not be read or written."""

    code = "storage/failed"


class VisionError(CompanionError):
    """The dice reader cannot read: no models or the wrong ones, a picture it cannot take."""

    code = "vision/failed"
