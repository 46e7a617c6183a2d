"""The director's pages: set up a tournament, its players and draw; run its results."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.registry import RuleError
from tournaments import access, selectors, services
from tournaments.errors import DomainError, readable
from tournaments.forms import (
    DirectorForm,
    DrawForm,
    EntryForm,
    ImportForm,
    ReasonForm,
    TournamentForm,
    call_service,
)
from tournaments.views.common import actor_of, run


def directed(request, slug: str):
    """The actor and the tournament at this address, if the actor directs it (else 403)."""
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    access.require_director(actor, tournament)
    return actor, tournament


def back_to_match(slug: str, match_id: int | None):
    """After a director's action on a match: its page, or the dashboard if the match is
    not known (the action was refused before it was found)."""
    if match_id is not None:
        return redirect("director:match", slug=slug, match_id=match_id)
    return redirect("director:dashboard", slug=slug)


@login_required
def home(request):
    return render(request, "director/home.html", {"tournaments": selectors.directed_tournaments(actor_of(request))})


@login_required
def create(request):
    form = TournamentForm(request.POST or None, initial={"confirmation_minutes": 10, "game_type": "scored"})
    if request.method == "POST" and form.is_valid():
        tournament = call_service(form, services.create_tournament, actor_of(request), **form.service_fields())
        if tournament is not None:
            messages.success(request, _("Tournament created. Add the players next."))
            return redirect("director:entries", slug=tournament.slug)
    return render(request, "director/tournament_form.html", {"form": form}, status=400 if form.errors else 200)


@login_required
def dashboard(request, slug: str):
    actor, tournament = directed(request, slug)
    view = selectors.tournament_view(tournament)
    return render(
        request,
        "director/dashboard.html",
        {
            "tournament": tournament,
            "view": view,
            "pending": selectors.pending_results(tournament),
            "pending_games": tournament.game.sheet.pending(tournament) if tournament.game.sheet else [],
            "draw_form": DrawForm(),
            "director_form": DirectorForm(),
            "directors": tournament.directors.order_by("username"),
        },
    )


@login_required
def edit_settings(request, slug: str):
    actor, tournament = directed(request, slug)
    form = TournamentForm.for_tournament(tournament, request.POST or None)
    saved = (
        request.method == "POST"
        and form.is_valid()
        and call_service(form, services.update_tournament, actor, tournament.pk, **form.service_fields())
    )
    if saved:
        messages.success(request, _("Settings saved."))
        return redirect("director:dashboard", slug=slug)
    return render(
        request,
        "director/tournament_form.html",
        {"form": form, "tournament": tournament},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def open_registration(request, slug: str):
    actor, tournament = directed(request, slug)
    run(
        request,
        services.open_registration,
        actor,
        tournament.pk,
        success=_("Registration is open; the tournament is public."),
    )
    return redirect("director:dashboard", slug=slug)


@login_required
@require_POST
def add_director(request, slug: str):
    actor, tournament = directed(request, slug)
    form = DirectorForm(request.POST)
    if form.is_valid():
        run(
            request,
            services.add_director,
            actor,
            tournament.pk,
            form.cleaned_data["username"],
            success=_("Director added."),
        )
    return redirect("director:dashboard", slug=slug)


@login_required
def entries(request, slug: str):
    actor, tournament = directed(request, slug)
    entry_form = EntryForm(prefix="entry")
    import_form = ImportForm(prefix="import")
    status = 200
    if request.method == "POST" and "add" in request.POST:
        entry_form = EntryForm(request.POST, prefix="entry")
        if entry_form.is_valid():
            entry = call_service(entry_form, services.add_entry, actor, tournament.pk, **entry_form.cleaned_data)
            if entry is not None:
                messages.success(request, _("%(name)s added.") % {"name": entry.name})
                return redirect("director:entries", slug=slug)
        status = 400
    elif request.method == "POST" and "save-seeds" in request.POST:
        seeds = {key.removeprefix("seed-"): value for key, value in request.POST.items() if key.startswith("seed-")}
        if run(request, services.set_seeds, actor, tournament.pk, seeds, success=_("Seeds saved.")) is not None:
            return redirect("director:entries", slug=slug)
        status = 400
    elif request.method == "POST" and "import" in request.POST:
        import_form = ImportForm(request.POST, request.FILES, prefix="import")
        if import_form.is_valid():
            try:
                text = import_form.csv_text()
            except DomainError as error:
                import_form.add_error("file", error.message)
            else:
                imported = call_service(import_form, services.import_entries, actor, tournament.pk, text)
                if imported is not None:
                    messages.success(request, _("%(count)d players imported.") % {"count": len(imported)})
                    return redirect("director:entries", slug=slug)
        status = 400
    return render(
        request,
        "director/entries.html",
        {
            "tournament": tournament,
            "entries": selectors.entries_of(tournament),
            "entry_form": entry_form,
            "import_form": import_form,
        },
        status=status,
    )


@login_required
def entry_edit(request, slug: str, entry_id: int):
    actor, tournament = directed(request, slug)
    entry = get_object_or_404(tournament.entries, pk=entry_id)
    initial = {f: getattr(entry, f) for f in ("name", "rating", "club", "country", "seed")}
    form = EntryForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changed = {name: form.cleaned_data[name] for name in form.changed_data}
        if call_service(form, services.update_entry, actor, entry.pk, **changed):
            messages.success(request, _("Saved."))
            return redirect("director:entries", slug=slug)
    return render(
        request,
        "director/entry_edit.html",
        {"tournament": tournament, "entry": entry, "form": form, "reason_form": ReasonForm()},
        status=400 if form.errors else 200,
    )


@login_required
@require_POST
def entry_remove(request, slug: str, entry_id: int):
    actor, tournament = directed(request, slug)
    run(request, services.remove_entry, actor, _entry_id(tournament, entry_id), success=_("Player removed."))
    return redirect("director:entries", slug=slug)


@login_required
@require_POST
def entry_withdraw(request, slug: str, entry_id: int):
    actor, tournament = directed(request, slug)
    run(
        request,
        services.withdraw_entry,
        actor,
        _entry_id(tournament, entry_id),
        request.POST.get("reason", ""),
        success=_("Player withdrawn; their opponents advance."),
    )
    return redirect("director:entries", slug=slug)


def _entry_id(tournament, entry_id: int) -> int:
    return get_object_or_404(tournament.entries, pk=entry_id).pk


def _match_id(tournament, match_id: int) -> int:
    return get_object_or_404(tournament.matches, pk=match_id).pk


@login_required
@require_POST
def make_draw(request, slug: str):
    actor, tournament = directed(request, slug)
    form = DrawForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("The random seed must be a whole number."))
    else:
        run(
            request,
            services.make_draw,
            actor,
            tournament.pk,
            form.cleaned_data.get("random_seed"),
            success=_("The draw is made; the tournament is running."),
        )
    return redirect("director:dashboard", slug=slug)


@login_required
@require_POST
def cancel_draw(request, slug: str):
    actor, tournament = directed(request, slug)
    run(request, services.cancel_draw, actor, tournament.pk, success=_("The draw is cancelled."))
    return redirect("director:dashboard", slug=slug)


@login_required
def rounds(request, slug: str):
    actor, tournament = directed(request, slug)
    game = tournament.game
    if request.method == "POST":
        round_ = tournament.rounds.filter(pk=request.POST.get("round")).first()
        if round_ is not None:
            settings = {game.plan_field: request.POST.get("value", "")}
            run(request, services.update_round_settings, actor, round_.pk, settings, success=_("Saved."))
        return redirect("director:rounds", slug=slug)
    view = selectors.tournament_view(tournament)
    return render(
        request,
        "director/rounds.html",
        {"tournament": tournament, "view": view, "plan_field": game.plan_field, "plan_label": game.plan_label},
    )


@login_required
def match_detail(request, slug: str, match_id: int, error: str = "", posted=None, status: int = 200, extra=None):
    actor, tournament = directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    game = tournament.game
    sheet = {}
    if game.sheet is not None and match.entry_a_id and match.entry_b_id:
        sheet = {**game.sheet.context(match, director=True), "sheet_template": game.sheet.panel_template}
    return render(
        request,
        "director/match.html",
        {
            **sheet,
            "sheet_actor": "director",
            "tournament": tournament,
            "match": match,
            "label": selectors.describe_match(match),
            "settings_text": game.describe_round_settings(match.round.settings),
            "submissions": selectors.submissions_of(match),
            "open_result": selectors.open_submission(match),
            "result_form_template": game.result_form_template,
            "error": error,
            "posted": posted or {},
            "form_action": "director",
            **(extra or {}),
        },
        status=status,
    )


@login_required
@require_POST
def match_result(request, slug: str, match_id: int):
    actor, tournament = directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    try:
        result = tournament.game.result_from_form(request.POST, match.round.settings)
        services.submit_result(actor, match.pk, result, note=request.POST.get("note", ""))
    except (RuleError, DomainError) as error:
        message = readable(error)
        return match_detail(
            request, slug, match_id, error=message, posted=request.POST, status=getattr(error, "status_code", 400)
        )
    messages.success(request, _("Result saved."))
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def match_walkover(request, slug: str, match_id: int):
    actor, tournament = directed(request, slug)
    run(
        request,
        services.record_walkover,
        actor,
        _match_id(tournament, match_id),
        request.POST.get("winner"),
        request.POST.get("note", ""),
        success=_("Walkover recorded."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def match_undo(request, slug: str, match_id: int):
    actor, tournament = directed(request, slug)
    run(
        request,
        services.undo_result,
        actor,
        _match_id(tournament, match_id),
        request.POST.get("reason", ""),
        success=_("Result undone."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def result_confirm(request, slug: str, submission_id: int):
    actor, tournament = directed(request, slug)
    submission = run(request, services.confirm_result, actor, submission_id, success=_("Result confirmed."))
    if submission is not None:
        return redirect("director:match", slug=slug, match_id=submission.match_id)
    return redirect("director:dashboard", slug=slug)


@login_required
def audit_log(request, slug: str):
    actor, tournament = directed(request, slug)
    return render(request, "director/audit.html", {"tournament": tournament, "log": selectors.audit_log(tournament)})


@login_required
def slips(request, slug: str):
    """One slip per player with their private link and its QR code, for printing."""
    actor, tournament = directed(request, slug)
    base = request.build_absolute_uri("/").rstrip("/")
    slips = []
    for entry in selectors.entries_of(tournament):
        if entry.withdrawn:
            continue
        url = base + entry.get_private_url()
        qr = segno.make(url, error="m").svg_inline(scale=3, dark="#000", light=None)
        slips.append({"entry": entry, "url": url, "qr": mark_safe(qr)})  # noqa: S308 - segno's own SVG
    return render(request, "director/slips.html", {"tournament": tournament, "slips": slips})
