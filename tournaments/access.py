"""Who may do what (SPEC §1): the one permission layer of pages, API and services.

An ``Actor`` is whoever makes a request: a signed-in user (a director of some
tournaments), a player holding an entry's private key, Celery acting for the system,
or the public. Services call ``require_*`` before they change anything, so a page and
the API can never disagree on a permission.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from tournaments.models import Entry, Match, Tournament


@dataclass(frozen=True)
class Actor:
    user: object | None = None  # an authenticated user, or None
    entry: Entry | None = None  # the entry whose private key was presented
    system: bool = False  # Celery and management commands acting on their own

    @property
    def label(self) -> str:
        if self.system:
            return "system"
        if self.user is not None:
            return f"user {self.user.get_username()}"
        if self.entry is not None:
            return f"player {self.entry.name} (private link)"
        return "public"

    @property
    def is_anonymous(self) -> bool:
        return self.user is None and self.entry is None and not self.system


SYSTEM = Actor(system=True)
PUBLIC = Actor()


def actor_for(user=None, entry: Entry | None = None) -> Actor:
    if user is not None and not getattr(user, "is_authenticated", False):
        user = None
    return Actor(user=user, entry=entry)


def is_director(actor: Actor, tournament: Tournament) -> bool:
    if actor.system:
        return True
    user = actor.user
    if user is None or not user.is_active:
        return False
    if user.is_superuser:
        return True
    cache = getattr(tournament, "_director_ids", None)
    if cache is None:
        cache = set(tournament.directors.values_list("pk", flat=True))
        tournament._director_ids = cache
    return user.pk in cache


def require_director(actor: Actor, tournament: Tournament) -> None:
    if not is_director(actor, tournament):
        raise PermissionDenied(_("Only a director of this tournament may do this."))


def require_signed_in(actor: Actor) -> None:
    if actor.user is None:
        raise PermissionDenied(_("Sign in as a director to do this."))


def playing_entry(actor: Actor, match: Match) -> Entry | None:
    """The entry through which this actor plays in this match, if any."""
    if (
        actor.entry is not None
        and actor.entry.tournament_id == match.tournament_id
        and actor.entry.pk in (match.entry_a_id, match.entry_b_id)
    ):
        return actor.entry
    if actor.user is not None:
        for entry in (match.entry_a, match.entry_b):
            if entry is not None and entry.user_id == actor.user.pk:
                return entry
    return None


def require_player_of(actor: Actor, match: Match) -> Entry:
    entry = playing_entry(actor, match)
    if entry is None:
        raise PermissionDenied(_("Only the two players of this match or a director may do this."))
    return entry


def can_view_entry_private(actor: Actor, entry: Entry) -> bool:
    """A player's private page: the player themselves and the tournament's directors."""
    if actor.entry is not None and actor.entry.pk == entry.pk:
        return True
    if actor.user is not None and entry.user_id == actor.user.pk:
        return True
    return is_director(actor, entry.tournament)


def can_view_tournament(actor: Actor, tournament: Tournament) -> bool:
    """Drafts are the directors' own; everything else is public."""
    return tournament.status != Tournament.Status.DRAFT or is_director(actor, tournament)
