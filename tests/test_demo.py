"""The demo that ``make run`` loads: a director login, a 16-player knockout with
results in every state, and a backgammon knockout with a match at the Crawford game."""

from datetime import timedelta

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import authenticate
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from director import demo
from games.backgammon import chouette_services
from games.backgammon.sheet import sheet_of
from games.chess import services as chess_services
from games.scrabble import sheet as scrabble_sheet
from tournaments.models import Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_has_a_director_and_a_knockout_with_results():
    call_command("load_demo")
    assert authenticate(username=demo.DIRECTOR_USERNAME, password=demo.DIRECTOR_PASSWORD) is not None
    tournament = Tournament.objects.get(slug=demo.KNOCKOUT_SLUG)
    assert tournament.status == Tournament.Status.RUNNING
    assert tournament.entries.count() == 16
    statuses = set(Match.objects.filter(tournament=tournament).values_list("status", flat=True))
    assert {"decided", "provisional", "disputed", "ready", "waiting"} <= statuses
    assert ResultSubmission.objects.filter(match__tournament=tournament, status="confirmed").count() == 10
    summaries = {s.tournament.slug: s for s in demo.summary() if s.tournament}
    links = summaries[demo.KNOCKOUT_SLUG].player_links
    assert [what for _, what, _ in links] == ["confirm or dispute a result", "enter a result"]
    assert all(path.startswith("/p/") for _, _, path in links)
    printed = demo.describe(demo.summary(), "http://example.org:8080")
    assert "http://example.org:8080/t/demo-open/" in printed and "'director'" in printed
    assert "http://example.org:8080/t/demo-backgammon/" in printed


def test_the_backgammon_demo_has_a_match_at_the_crawford_game():
    call_command("load_demo")
    tournament = Tournament.objects.get(slug=demo.BACKGAMMON_SLUG)
    first_round = list(tournament.matches.filter(round_number=1).order_by("position"))
    states = [sheet_of(m).state for m in first_round]
    assert [(s.score_a, s.score_b) for s in states] == [(5, 2), (5, 4), (4, 1), (1, 3)]
    assert [m.decided_by for m in first_round] == ["result", "result", "", ""]
    assert states[2].next_is_crawford
    assert states[3].lines[-1].game.winner == "b"
    assert first_round[3].backgammon_games.get(number=3).status == "provisional"
    links = {s.tournament.slug: s for s in demo.summary() if s.tournament}[demo.BACKGAMMON_SLUG].player_links
    assert [what for _, what, _ in links] == ["confirm a game on the score sheet", "play the Crawford game"]


def test_the_scrabble_demo_has_a_game_in_progress():
    call_command("load_demo")
    tournament = Tournament.objects.get(slug=demo.SCRABBLE_SLUG)
    match = tournament.matches.filter(round_number=1).order_by("position").first()
    view = scrabble_sheet.match_view(match)
    state = view.current.state
    assert len(state.lines) == 5 and not state.ended
    assert state.crosses == (1, 0)  # the overscore protest was upheld
    assert any(line.corrected for line in state.lines)
    links = {s.tournament.slug: s for s in demo.summary() if s.tournament}[demo.SCRABBLE_SLUG].player_links
    assert [what for _, what, _ in links] == ["enter the next move on the score sheet; 2-minute move clock"]
    clock = match.clock  # the player on turn has two minutes, enforced by the worker
    on_turn = view.current.on_turn
    assert (clock.phase, clock.running) == ("running", on_turn)
    assert timedelta(seconds=110) < clock.deadline - timezone.now() <= timedelta(seconds=120)


def test_loading_the_demo_twice_changes_nothing_and_reset_makes_it_again():
    call_command("load_demo")
    first = Tournament.objects.get(slug=demo.KNOCKOUT_SLUG).pk
    call_command("load_demo")
    assert Tournament.objects.get(slug=demo.KNOCKOUT_SLUG).pk == first
    call_command("load_demo", "--reset")
    assert Tournament.objects.get(slug=demo.KNOCKOUT_SLUG).pk != first
    assert Tournament.objects.count() == 4


def test_every_demo_page_renders():
    call_command("load_demo")
    client = Client()
    client.login(username=demo.DIRECTOR_USERNAME, password=demo.DIRECTOR_PASSWORD)
    assert client.get("/director/").status_code == 200
    assert client.get("/admin/tournaments/match/").status_code == 200
    for tournament in Tournament.objects.all():
        slug = tournament.slug
        match = tournament.matches.filter(status__in=["provisional", "ready"]).exclude(entry_b=None).first()
        for url in (
            "/",
            f"/t/{slug}/",
            f"/t/{slug}/results/",
            f"/t/{slug}/m/{match.pk}/",
            f"/p/{match.entry_b.private_key}/",
            f"/p/{match.entry_b.private_key}/m/{match.pk}/",
            f"/api/matches/{match.pk}/",
            "/accounts/login/",
        ):
            assert Client().get(url).status_code == 200, url
        for path in ("", "settings/", "entries/", "rounds/", "audit/", "slips/", f"m/{match.pk}/"):
            assert client.get(f"/director/t/{slug}/{path}").status_code == 200, path
    started = Match.objects.filter(tournament__slug=demo.SCRABBLE_SLUG, started_at__isnull=False).first()
    gcg = Client().get(f"/t/{demo.SCRABBLE_SLUG}/m/{started.pk}/games/1.gcg")
    assert gcg.status_code == 200 and gcg.content.startswith(b"#character-encoding UTF-8")
    decided = Match.objects.filter(tournament__slug=demo.BACKGAMMON_SLUG, decided_by="result").first()
    record = Client().get(f"/t/{demo.BACKGAMMON_SLUG}/m/{decided.pk}/match.mat")
    assert record.status_code == 200 and b" 5 point match" in record.content


def test_the_chouette_demo_has_five_players_and_games_that_sum_to_zero():
    call_command("load_demo")
    session = demo.demo_chouette()
    state = chouette_services.replay(session)
    assert session.players.count() == 5 and len(state.line) == 5
    assert session.stake_cents == 1000 and session.settings["cubes"] == "many"
    assert len(state.games) >= 4
    assert all(sum(row.values()) == 0 for row in state.ledger)
    assert session.events.get(kind="line").data["rolls"][1]  # a tie rolled again
    assert [state.players[p] for p in state.games[0][2][:2]] == ["Evžen Fiala", "Ctibor Dušek"]
    assert any(score.acting_captain not in (None, line[1]) for _, score, line in state.games)  # a takeover
    printed = demo.describe(demo.summary(), "http://example.org")
    assert f"http://example.org/chouette/{session.pk}/" in printed
    assert f"http://example.org/chouette/table/{session.table_key}/" in printed
    for url in (f"/chouette/{session.pk}/", f"/chouette/table/{session.table_key}/", "/chouette/"):
        assert Client().get(url).status_code == 200, url
    client = Client()
    client.login(username=demo.DIRECTOR_USERNAME, password=demo.DIRECTOR_PASSWORD)
    assert client.get(f"/chouette/{session.pk}/manage/").status_code == 200
    call_command("load_demo")
    assert demo.demo_chouette().pk == session.pk
    call_command("load_demo", "--reset")
    assert demo.demo_chouette().pk != session.pk


def test_every_model_of_the_project_is_in_the_admin_and_its_pages_render():
    call_command("load_demo")
    client = Client()
    client.login(username=demo.DIRECTOR_USERNAME, password=demo.DIRECTOR_PASSWORD)
    ours = [m for m in apps.get_models() if m.__module__.split(".")[0] in ("tournaments", "games", "clocks")]
    shown = set(admin.site._registry) | {i.model for a in admin.site._registry.values() for i in a.inlines}
    # A word list's words are shown by their count; every other model has a page or an inline.
    missing = [m.__name__ for m in ours if m not in shown and m.__name__ != "Word"]
    assert not missing, f"not in the admin: {missing}"
    for model in admin.site._registry:
        if model in ours:
            opts = model._meta
            assert client.get(f"/admin/{opts.app_label}/{opts.model_name}/").status_code == 200, opts.label
            row = model.objects.first()
            if row is not None:
                assert client.get(f"/admin/{opts.app_label}/{opts.model_name}/{row.pk}/change/").status_code == 200


def test_the_chess_demo_has_a_tiebreak_a_running_clock_and_a_game_to_confirm():
    call_command("load_demo")
    tournament = Tournament.objects.get(slug=demo.CHESS_SLUG)
    matches = list(tournament.matches.filter(flight="main", round_number=1).order_by("position"))
    states = {m.pk: chess_services.state_of(m) for m in matches}
    assert matches[0].decided_by == "result" and states[matches[0].pk].summary == "1½–½"
    assert states[matches[1].pk].next_game.kind.value == "rapid"
    clock = matches[2].clock
    assert clock.phase == "running" and timedelta(minutes=14) < clock.deadline - timezone.now() <= timedelta(minutes=15)
    assert clock.control_a["periods"][0] == {"time": 900_000, "moves": None, "increment": 5000}
    assert matches[3].chess_games.get().status == "provisional"
    links = {s.tournament.slug: s for s in demo.summary() if s.tournament}[demo.CHESS_SLUG].player_links
    assert [what for _, what, _ in links] == [
        "confirm a game of the mini-match",
        "on move: the clock runs (15 min + 5 s)",
    ]
    for url in (f"/t/{demo.CHESS_SLUG}/games.pgn", f"/t/{demo.CHESS_SLUG}/tournament.trf"):
        assert Client().get(url).status_code == 200, url
