"""The one error type of the domain, for input a person can fix."""

from __future__ import annotations


class DomainError(Exception):
    """A request the rules refuse; ``message`` says what is wrong and how to fix it.

    ``field`` names the input at fault when one field is. Pages show it as a form
    error, the API as a 400.
    """

    status_code = 400

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = str(message)
        self.field = field


class ConflictError(DomainError):
    """Someone else changed the same thing first (the API answers 409)."""

    status_code = 409


def readable(error: Exception) -> str:
    """An error's message for the person who caused it, in their language."""
    from django.utils.translation import gettext

    from games.text import TextError

    if isinstance(error, DomainError):
        return error.message
    if isinstance(error, TextError):
        return error.translate(gettext)
    return str(error)
