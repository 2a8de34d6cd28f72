"""The few errors nhex raises on purpose.

Everything a user can get wrong in a file is a :class:`NotationError` with a place in the file; the command
line prints it as ``FILE:LINE:COLUMN: message`` and exits with status 2. An illegal action is an
:class:`IllegalAction`: an answer (exit status 1), not a crash.
"""

from __future__ import annotations


class NhexError(ValueError):
    """Base class of the errors nhex raises about its input."""


class NotationError(NhexError):
    """Bad input text: a syntax error or a position that breaks a consistency rule."""

    def __init__(self, message: str, line: int = 0, column: int = 0, source: str = "<input>") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.source = source

    def located(self, source: str) -> NotationError:
        return NotationError(self.message, self.line, self.column, source)

    def __str__(self) -> str:
        return f"{self.source}:{self.line}:{self.column}: {self.message}"


class IllegalAction(NhexError):
    """An action the rules do not allow here; ``rule`` names the rule it breaks."""

    def __init__(self, action: str, rule: str) -> None:
        super().__init__(f"{action}: illegal: {rule}")
        self.action = action
        self.rule = rule


class RuleNotImplemented(NotImplementedError):
    """A rule nhex knows of but does not implement yet; raised instead of doing something else silently.

    The command line reports it as ``FILE:LINE:COLUMN: not implemented yet: RULE`` and exits with status 4
    (NOTATION §9). Where the code that raises it knows the place in the input (a reader, a game record's
    turn) it gives ``line`` and ``column``; otherwise the command line looks for the line that needs the rule
    and, failing that, writes ``FILE:0:0`` (0: no place in the file, as for a file that cannot be read).
    """

    #: The action that needs the rule, set by game checking on its way out (absent until then).
    action: str

    def __init__(self, rule: str, line: int = 0, column: int = 0, source: str | None = None) -> None:
        super().__init__(f"not implemented yet: {rule}")
        self.rule = rule
        self.line = line
        self.column = column
        self.source = source

    def located(self, source: str, line: int | None = None, column: int | None = None) -> str:
        """``FILE:LINE:COLUMN: not implemented yet: RULE``, with the place given here when it has none."""
        if not self.line and line is not None:
            line, column = line, column or 0
        else:
            line, column = self.line, self.column
        return f"{self.source or source}:{line}:{column}: not implemented yet: {self.rule}"
