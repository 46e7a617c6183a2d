"""A player's private pages (``/p/<key>/``): their matches, results to enter, confirm
or dispute. The key in the address is the player's ticket; no account is needed."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.registry import RuleError
from tournaments import access, selectors, services
from tournaments.errors import DomainError, readable
from tournaments.views.common import actor_of, run


def home(request, key: str):
    entry = selectors.entry_by_key(key)
    matches = selectors.matches_of_entry(entry)
    current = selectors.current_match(entry, matches)
    return render(
        request,
        "player/home.html",
        _match_context(entry, current, matches=matches),
    )


def match_detail(request, key: str, match_id: int):
    entry = selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = selectors.match_for(actor, entry.tournament, match_id)
    if access.playing_entry(actor, match) is None:
        raise PermissionDenied(_("This is not your match."))
    return match_page(request, entry, match)


def match_page(request, entry, match, error: str = "", posted=None, status: int = 200, extra=None):
    """A player's match: its sheet or result form, with what they can do now."""
    context = {**_match_context(entry, match, error=error, posted=posted), **(extra or {})}
    return render(request, "player/match.html", context, status=status)


@require_POST
def submit_result(request, key: str, match_id: int):
    entry = selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = selectors.match_for(actor, entry.tournament, match_id)
    access.require_player_of(actor, match)
    game = entry.tournament.game
    try:
        result = game.result_from_form(request.POST, match.round.settings)
        services.submit_result(actor, match.pk, result, note=request.POST.get("note", ""))
    except (RuleError, DomainError) as error:
        return match_page(request, entry, match, readable(error), request.POST, getattr(error, "status_code", 400))
    messages.success(request, _("Result entered. Your opponent confirms it (or the director)."))
    return redirect("player:home", key=key)


@require_POST
def confirm_result(request, key: str, submission_id: int):
    entry = selectors.entry_by_key(key)
    run(request, services.confirm_result, actor_of(request, entry), submission_id, success=_("Result confirmed."))
    return redirect("player:home", key=key)


@require_POST
def dispute_result(request, key: str, submission_id: int):
    entry = selectors.entry_by_key(key)
    run(
        request,
        services.dispute_result,
        actor_of(request, entry),
        submission_id,
        request.POST.get("reason", ""),
        success=_("Result disputed. The director will decide."),
    )
    return redirect("player:home", key=key)


def _match_context(entry, match, matches=None, error: str = "", posted=None) -> dict:
    open_result = selectors.open_submission(match) if match is not None else None
    game = entry.tournament.game
    sheet = {}
    if game.sheet is not None and match is not None and match.entry_a_id and match.entry_b_id:
        sheet = {**game.sheet.context(match, entry=entry), "sheet_template": game.sheet.panel_template}
    return {
        **sheet,
        "sheet_actor": "player",
        "entry": entry,
        "tournament": entry.tournament,
        "matches": matches,
        "match": match,
        "label": selectors.describe_match(match) if match is not None else "",
        "table": selectors.table_of(match) if match is not None and not match.decided_by else "",
        "settings_text": entry.tournament.game.describe_round_settings(match.round.settings) if match else "",
        "opponent": match.opponent_of(entry) if match is not None else None,
        "open_result": open_result,
        "mine": open_result is not None and open_result.submitted_by_entry_id == entry.pk,
        "error": error,
        "posted": posted or {},
        "result_form_template": entry.tournament.game.result_form_template,
        "form_action": "player",
    }
