"""The result flow through the services: provisional, confirmed, disputed, corrected,
walkovers, withdrawals, undo, automatic confirmation and the end of the event."""

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from tests.conftest import first_round, make_tournament, play
from tournaments import selectors, services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError
from tournaments.models import AuditEntry, Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


def games(*pairs):
    return {"games": [list(p) for p in pairs]}


def test_a_players_result_is_provisional_until_the_opponent_confirms(tournament):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    match.refresh_from_db()
    assert submission.status == ResultSubmission.Status.PROVISIONAL
    assert match.status == Match.Status.PROVISIONAL
    assert match.winner_id is None
    assert match.started_at is not None
    assert submission.confirm_deadline is not None

    services.confirm_result(Actor(entry=match.entry_b), submission.pk)
    match.refresh_from_db()
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.CONFIRMED
    assert submission.confirmed_by_entry_id == match.entry_b_id
    assert match.status == Match.Status.DECIDED
    assert match.winner_id == match.entry_a_id
    assert match.summary == "2–0 (21–5, 21–7)"


def test_the_winner_advances_into_the_next_match_slot(tournament):
    r1 = first_round(tournament)
    play(r1[0])
    play(r1[1], games=((5, 21), (21, 19), (3, 21)))
    next_match = r1[0].winner_to
    next_match.refresh_from_db()
    assert next_match.entry_a_id == r1[0].entry_a_id
    assert next_match.entry_b_id == r1[1].entry_b_id
    assert next_match.status == Match.Status.READY


def test_the_player_who_entered_a_result_cannot_confirm_it(tournament):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    with pytest.raises(DomainError, match="your opponent must confirm"):
        services.confirm_result(Actor(entry=match.entry_a), submission.pk)


def test_a_player_may_correct_their_own_unconfirmed_result(tournament):
    match = first_round(tournament)[0]
    first = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    second = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (5, 21), (21, 1)))
    first.refresh_from_db()
    assert first.status == ResultSubmission.Status.SUPERSEDED
    assert second.version == first.version + 1
    assert second.status == ResultSubmission.Status.PROVISIONAL


def test_the_opponents_second_entry_conflicts_and_is_kept_in_the_audit_log(tournament):
    match = first_round(tournament)[0]
    services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    with pytest.raises(ConflictError, match="already entered a result"):
        services.submit_result(Actor(entry=match.entry_b), match.pk, games((5, 21), (7, 21)))
    assert match.submissions.count() == 1
    refused = AuditEntry.objects.get(action="result.refused", match=match)
    assert refused.after == {"result": {"games": [[5, 21], [7, 21]]}}
    assert "already entered" in refused.message


def test_a_dispute_goes_to_the_director_who_decides(tournament, director):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    services.dispute_result(Actor(entry=match.entry_b), submission.pk, "I won game 2")
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    with pytest.raises(ConflictError, match="disputed"):
        services.confirm_result(Actor(entry=match.entry_b), submission.pk)
    # The director enters the right result: final at once, the disputed one replaced.
    final = services.submit_result(director, match.pk, games((21, 5), (5, 21), (21, 19)))
    submission.refresh_from_db()
    match.refresh_from_db()
    assert submission.status == ResultSubmission.Status.SUPERSEDED
    assert final.status == ResultSubmission.Status.CONFIRMED
    assert match.status == Match.Status.DECIDED
    assert match.score_a == 2 and match.score_b == 1


def test_a_director_may_confirm_a_disputed_result(tournament, director):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    services.dispute_result(Actor(entry=match.entry_b), submission.pk)
    services.confirm_result(director, submission.pk)
    match.refresh_from_db()
    assert match.winner_id == match.entry_a_id


def test_a_directors_result_is_final_at_once(tournament, director):
    match = first_round(tournament)[0]
    submission = services.submit_result(director, match.pk, games((2, 21), (3, 21)))
    match.refresh_from_db()
    assert submission.status == ResultSubmission.Status.CONFIRMED
    assert submission.confirmed_by_user_id == director.user.pk
    assert match.winner_id == match.entry_b_id


def test_a_correction_with_the_same_winner_is_allowed_after_the_next_match_started(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    play(r1[1])
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    services.submit_result(Actor(entry=next_match.entry_a), next_match.pk, games((21, 1), (21, 1)))
    services.submit_result(director, r1[0].pk, games((21, 19), (21, 20)))
    r1[0].refresh_from_db()
    assert r1[0].summary == "2–0 (21–19, 21–20)"
    assert r1[0].submissions.filter(status="confirmed").count() == 1


def test_a_correction_that_changes_the_winner_is_refused_once_the_next_match_started(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    play(r1[1])
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    services.submit_result(Actor(entry=next_match.entry_a), next_match.pk, games((21, 1), (21, 1)))
    with pytest.raises(ConflictError, match="has already started; undo that match first"):
        services.submit_result(director, r1[0].pk, games((1, 21), (1, 21)))
    r1[0].refresh_from_db()
    assert r1[0].winner_id == r1[0].entry_a_id


def test_a_correction_that_changes_the_winner_moves_the_new_winner_on(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    services.submit_result(director, r1[0].pk, games((1, 21), (1, 21)))
    r1[0].refresh_from_db()
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    assert r1[0].winner_id == r1[0].entry_b_id
    assert next_match.entry_a_id == r1[0].entry_b_id
    statuses = sorted(r1[0].submissions.values_list("status", flat=True))
    assert statuses == ["confirmed", "superseded"]


def test_undo_is_refused_while_the_next_match_has_started(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    play(r1[1])
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    services.submit_result(Actor(entry=next_match.entry_a), next_match.pk, games((21, 1), (21, 1)))
    with pytest.raises(ConflictError, match="Semi-finals, match 1 has already started"):
        services.undo_result(director, r1[0].pk)
    r1[0].refresh_from_db()
    assert r1[0].status == Match.Status.DECIDED


def test_undo_takes_the_winner_out_of_the_next_match(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    services.undo_result(director, r1[0].pk, "wrong table")
    r1[0].refresh_from_db()
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    assert r1[0].status == Match.Status.READY
    assert r1[0].winner_id is None and r1[0].summary == ""
    assert next_match.entry_a_id is None
    assert r1[0].submissions.get().status == ResultSubmission.Status.UNDONE
    log = AuditEntry.objects.get(action="result.undone")
    assert log.before["winner"] == r1[0].entry_a_id and log.after["winner"] is None
    assert log.message == "wrong table"
    # The match can be played again.
    play(r1[0], games=((1, 21), (1, 21)))
    assert r1[0].winner_id == r1[0].entry_b_id


def test_a_walkover_advances_the_named_player(tournament, director):
    match = first_round(tournament)[0]
    services.record_walkover(director, match.pk, match.entry_b_id, "no-show")
    match.refresh_from_db()
    assert match.decided_by == Match.DecidedBy.WALKOVER
    assert match.winner_id == match.entry_b_id
    assert match.submissions.get().kind == ResultSubmission.Kind.WALKOVER


def test_a_withdrawal_gives_the_waiting_opponent_a_walkover(tournament, director):
    r1 = first_round(tournament)
    services.withdraw_entry(director, r1[0].entry_a_id)
    r1[0].refresh_from_db()
    assert r1[0].decided_by == Match.DecidedBy.WITHDRAWAL
    assert r1[0].winner_id == r1[0].entry_b_id


def test_a_withdrawn_player_loses_to_whoever_arrives_later(tournament, director):
    r1 = first_round(tournament)
    play(r1[0])
    services.withdraw_entry(director, r1[0].entry_a_id)  # already through to round 2
    next_match = Match.objects.get(pk=r1[0].winner_to_id)
    assert next_match.decided_by == ""
    play(r1[1])
    next_match.refresh_from_db()
    assert next_match.decided_by == Match.DecidedBy.WITHDRAWAL
    assert next_match.winner_id == r1[1].entry_a_id


def test_an_overdue_result_is_confirmed_automatically_once(tournament):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    assert services.confirm_if_due(submission.pk) is False  # not yet due
    later = submission.confirm_deadline + timedelta(seconds=1)
    assert services.confirm_if_due(submission.pk, now=later) is True
    assert services.confirm_if_due(submission.pk, now=later) is False  # safe to run twice
    submission.refresh_from_db()
    match.refresh_from_db()
    assert submission.auto_confirmed and submission.status == ResultSubmission.Status.CONFIRMED
    assert match.status == Match.Status.DECIDED
    assert AuditEntry.objects.filter(action="result.auto_confirmed", actor_label="system").count() == 1


def test_a_disputed_result_is_never_confirmed_by_the_timeout(tournament):
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    services.dispute_result(Actor(entry=match.entry_b), submission.pk)
    assert services.confirm_overdue_results(now=timezone.now() + timedelta(days=1)) == 0


def test_the_sweep_confirms_every_overdue_result(tournament):
    r1 = first_round(tournament)
    for match in r1[:3]:
        services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    assert services.confirm_overdue_results(now=timezone.now() + timedelta(hours=1)) == 3
    assert Match.objects.filter(pk__in=[m.pk for m in r1[:3]], status="decided").count() == 3


def test_a_timeout_of_zero_switches_automatic_confirmation_off(db, director):
    tournament = make_tournament(director, confirmation_timeout_seconds=0)
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    assert submission.confirm_deadline is None
    assert services.confirm_overdue_results(now=timezone.now() + timedelta(days=30)) == 0


def test_the_tournament_finishes_with_its_last_match_and_then_refuses_results(db, director):
    tournament = make_tournament(director, players=4)
    for round_number in (1, 2):
        for match in tournament.matches.filter(round_number=round_number):
            play(match)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    final = tournament.matches.get(round_number=2)
    with pytest.raises(DomainError, match="has finished"):
        services.submit_result(director, final.pk, games((21, 1), (21, 1)))
    # Undoing the final reopens the event.
    services.undo_result(director, final.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.RUNNING


def test_final_standings_of_a_finished_knockout(db, director):
    tournament = make_tournament(director, players=8, third_place_match=True)
    for flight, round_number in (("main", 1), ("main", 2), ("main", 3), ("third_place", 1)):
        for match in tournament.matches.filter(flight=flight, round_number=round_number):
            play(match)
    view = selectors.tournament_view(Tournament.objects.get(pk=tournament.pk))
    places = [(place, entry.bracket_seed) for place, entry, _, _ in view.standing_rows()]
    assert view.standings.final
    assert [p for p, _ in places] == ["1", "2", "3", "4", "5–8", "5–8", "5–8", "5–8"]
    assert places[0] == ("1", 1)  # slot a (the better seed) always won


def test_cancel_draw_is_allowed_until_a_match_starts(db, director):
    tournament = make_tournament(director, players=6)
    services.cancel_draw(director, tournament.pk)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.REGISTRATION
    assert not tournament.matches.exists() and not tournament.rounds.exists()
    services.make_draw(director, tournament.pk, random_seed=7)
    match = tournament.matches.filter(entry_a__isnull=False, entry_b__isnull=False).first()
    services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    with pytest.raises(DomainError, match="already been played"):
        services.cancel_draw(director, tournament.pk)


def test_a_rounds_settings_change_until_it_starts(tournament, director):
    round_ = tournament.rounds.get(flight="main", number=1)
    services.update_round_settings(director, round_.pk, {"best_of": 5})
    match = first_round(tournament)[0]
    with pytest.raises(DomainError, match="Nobody has won 3 games"):
        services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7)))
    services.submit_result(Actor(entry=match.entry_a), match.pk, games((21, 5), (21, 7), (21, 1)))
    with pytest.raises(DomainError, match="has started"):
        services.update_round_settings(director, round_.pk, {"best_of": 3})


def test_the_round_plan_sets_each_rounds_best_of(db, director):
    tournament = make_tournament(director, players=8, round_plan="1, 3, 5")
    settings = {r.number: r.settings["best_of"] for r in tournament.rounds.filter(flight="main")}
    assert settings == {1: 1, 2: 3, 3: 5}


def test_players_cannot_act_for_the_director(tournament):
    match = first_round(tournament)[0]
    with pytest.raises(PermissionDenied):
        services.record_walkover(Actor(entry=match.entry_a), match.pk, match.entry_a_id)
    with pytest.raises(PermissionDenied):
        services.undo_result(Actor(entry=match.entry_a), match.pk)


def test_seeds_are_set_all_at_once_and_may_swap(db, director):
    tournament = make_tournament(director, players=4, draw=False, seeding_method="manual")
    entries = list(tournament.entries.order_by("name"))
    services.set_seeds(director, tournament.pk, {e.pk: i + 1 for i, e in enumerate(entries)})
    # Swapping two seeds passes although each new number is taken when read one by one.
    services.set_seeds(director, tournament.pk, {entries[0].pk: 2, entries[1].pk: 1})
    assert dict(tournament.entries.values_list("name", "seed")) == {
        entries[0].name: 2,
        entries[1].name: 1,
        entries[2].name: 3,
        entries[3].name: 4,
    }
    with pytest.raises(DomainError, match="Seed 3 is given to both"):
        services.set_seeds(director, tournament.pk, {entries[0].pk: 3})
    services.make_draw(director, tournament.pk, random_seed=1)
    assert tournament.entries.get(seed=1).bracket_seed == 1
    with pytest.raises(DomainError, match="draw has been made"):
        services.set_seeds(director, tournament.pk, {entries[0].pk: ""})
