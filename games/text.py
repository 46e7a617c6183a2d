"""Messages of the pure rule modules, translatable without importing Django.

A rule module writes each message in English, marked with ``gettext_noop`` so that
``makemessages`` collects it, and passes its values apart::

    raise RuleError(gettext_noop("Game %(number)d ends level."), number=2)

``str(error)`` is the English sentence; the Django layer shows
``error.translate(gettext)``: the message translated first, the values filled in after.
A value may itself be a ``Text`` (translated the same way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Translate = Callable[[str], str]


def gettext_noop(message: str) -> str:
    """Marks a message for translation; returns it unchanged."""
    return message


class Text:
    """A message and its values, to be translated when it is shown."""

    def __init__(self, message: str, **values: Any) -> None:
        self.message = message
        self.values = values

    def translate(self, gettext: Translate) -> str:
        text = gettext(self.message)
        if not self.values:
            return text
        return text % {
            k: v.translate(gettext) if isinstance(v, Text | TextError) else v for k, v in self.values.items()
        }

    def __str__(self) -> str:
        return self.translate(lambda message: message)

    def __repr__(self) -> str:
        return f"Text({self!s})"


class TextError(ValueError):
    """An error whose message a person reads, in their language."""

    def __init__(self, message: str, **values: Any) -> None:
        self.text = Text(message, **values)
        super().__init__(str(self.text))

    def translate(self, gettext: Translate) -> str:
        return self.text.translate(gettext)


class RuleError(TextError):
    """Input that breaks a game's rules; the message says what and how to fix it.

    Every game's rule errors are RuleErrors, so the tournament code can catch them
    whatever the game.
    """
