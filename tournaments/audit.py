"""The audit log: every change of a result, a draw, an entry or a setting (SPEC §1)."""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext_lazy as _

from tournaments import deferred_inserts
from tournaments.access import Actor
from tournaments.models import AuditEntry, Entry, Match, ResultSubmission, Tournament

# What each action is called in the audit log's page.
ACTIONS = {
    "tournament.created": _("Tournament created"),
    "tournament.updated": _("Settings changed"),
    "tournament.registration_opened": _("Published, registration opened"),
    "tournament.director_added": _("Director added"),
    "tournament.finished": _("Tournament finished"),
    "entry.added": _("Player added"),
    "entry.imported": _("Players imported"),
    "entry.updated": _("Player changed"),
    "entry.removed": _("Player removed"),
    "entry.seeded": _("Seeds set"),
    "entry.withdrawn": _("Player withdrawn"),
    "draw.made": _("Draw made"),
    "draw.cancelled": _("Draw cancelled"),
    "round.updated": _("Round settings changed"),
    "result.submitted": _("Result entered by a player"),
    "result.refused": _("Result refused"),
    "result.confirmed": _("Result confirmed"),
    "result.auto_confirmed": _("Result confirmed automatically (timeout)"),
    "result.disputed": _("Result disputed"),
    "result.entered_by_director": _("Result entered by a director"),
    "result.corrected": _("Result corrected"),
    "result.walkover": _("Walkover"),
    "result.undone": _("Result undone"),
    "result.decided_by_sheet": _("Match decided by its score sheet"),
    "backgammon.game_entered": _("Backgammon game entered"),
    "backgammon.game_confirmed": _("Backgammon game confirmed"),
    "backgammon.game_auto_confirmed": _("Backgammon game confirmed automatically (timeout)"),
    "backgammon.game_disputed": _("Backgammon game disputed"),
    "backgammon.game_corrected": _("Backgammon game corrected"),
    "backgammon.game_undone": _("Backgammon game undone"),
    "chess.game_entered": _("Chess game entered"),
    "chess.game_confirmed": _("Chess game confirmed"),
    "chess.game_auto_confirmed": _("Chess game confirmed automatically (timeout)"),
    "chess.game_disputed": _("Chess game disputed"),
    "chess.game_corrected": _("Chess game corrected"),
    "chess.game_undone": _("Chess game undone"),
    "chess.flag_fall": _("Chess flag fall (held for the final position)"),
    "chess.final_position": _("Chess final position entered"),
    "chess.colours_drawn": _("Chess colours drawn at the board"),
    "scrabble.turn_entered": _("Scrabble turn entered"),
    "scrabble.turn_accepted": _("Scrabble turn accepted"),
    "scrabble.turn_undone": _("Scrabble turn undone"),
    "scrabble.protest_raised": _("Protest raised"),
    "scrabble.protest_decided": _("Protest decided by the director"),
    "scrabble.end_racks": _("Racks left at the end entered"),
    "scrabble.word_list": _("Word list uploaded"),
}


def record(
    tournament: Tournament,
    actor: Actor,
    action: str,
    *,
    match: Match | None = None,
    before: Any = None,
    after: Any = None,
    message: str = "",
) -> AuditEntry:
    entry = AuditEntry(
        tournament=tournament,
        match=match,
        actor_user=actor.user if actor.user is not None else None,
        actor_entry=actor.entry,
        actor_label=actor.label,
        action=action,
        before=before,
        after=after,
        message=str(message),
    )
    return deferred_inserts.insert(entry)


# --- What the audit log keeps of each kind of row -----------------------------------
def tournament_state(tournament: Tournament) -> dict[str, Any]:
    return {
        "name": tournament.name,
        "game_type": tournament.game_type,
        "status": tournament.status,
        "venue": tournament.venue,
        "starts_on": tournament.starts_on.isoformat() if tournament.starts_on else None,
        "seeding_method": tournament.seeding_method,
        "seeded_count": tournament.seeded_count,
        "third_place_match": tournament.third_place_match,
        "consolation": tournament.consolation,
        "confirmation_timeout_seconds": tournament.confirmation_timeout_seconds,
        "round_plan": tournament.round_plan,
    }


def entry_state(entry: Entry) -> dict[str, Any]:
    return {
        "id": entry.pk,
        "name": entry.name,
        "rating": entry.rating,
        "club": entry.club,
        "country": entry.country,
        "seed": entry.seed,
    }


def submission_state(submission: ResultSubmission) -> dict[str, Any]:
    return {
        "submission": submission.pk,
        "version": submission.version,
        "kind": submission.kind,
        "status": submission.status,
        "result": submission.result,
        "winner_side": submission.winner_side,
        "summary": submission.summary,
    }


def match_state(match: Match) -> dict[str, Any]:
    return {
        "match": match.pk,
        "entry_a": match.entry_a_id,
        "entry_b": match.entry_b_id,
        "status": match.status,
        "winner": match.winner_id,
        "decided_by": match.decided_by,
        "summary": match.summary,
    }


def jsonable(value: Any) -> Any:
    """The value itself if it can be stored as JSON, else its repr."""
    try:
        json.dumps(value)
        return value
    except (TypeError, ValueError):
        return repr(value)
