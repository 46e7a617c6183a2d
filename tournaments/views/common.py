"""What every HTML view needs: who is asking, and how a refusal is shown."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest

from tournaments import access
from tournaments.access import Actor
from tournaments.errors import DomainError
from tournaments.models import Entry


def actor_of(request: HttpRequest, entry: Entry | None = None) -> Actor:
    return access.actor_for(request.user, entry)


def run(request: HttpRequest, service, *args, success: str = "", **kwargs):
    """Call a service from a button; show its refusal as a message. Returns the result or None."""
    try:
        result = service(*args, **kwargs)
    except DomainError as error:
        messages.error(request, error.message)
        return None
    if success:
        messages.success(request, success)
    return result
