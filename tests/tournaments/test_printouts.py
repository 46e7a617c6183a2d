"""The director's printouts: the draw, each round's pairings with table numbers (byes
take no table), a result slip per table with a line per possible game, and only for the
tournament's directors."""

import re

import pytest
from django.test import Client

from tests.conftest import make_tournament
from tournaments.views.printouts import slip_rows

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return make_tournament(director, players=12, round_plan="3, 5")  # 16-bracket: 4 byes


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_pairings_number_the_tables_of_the_playable_matches(event, director_user):
    first = event.rounds.get(flight="main", number=1)
    html = client_of(director_user).get(f"/director/t/{event.slug}/print/rounds/{first.pk}/pairings/").content.decode()
    tables = re.findall(r'class="num table-number">(\d+)<', html)
    assert tables == [str(n) for n in range(1, 5)]  # 8 first-round slots, 4 of them byes
    assert "Player 001" not in html  # seed 1 has a bye: no table


def test_a_result_slip_per_table_with_a_line_per_game(event, director_user):
    first = event.rounds.get(flight="main", number=1)
    url = f"/director/t/{event.slug}/print/rounds/{first.pk}/result-slips/"
    html = client_of(director_user).get(url).content.decode()
    assert html.count('class="result-slip"') == 4
    assert html.count("Signature") == 8
    slip = html.split('class="result-slip"')[1]
    assert slip.count('<tr><td class="num">') == 3  # best of 3


@pytest.mark.parametrize(
    ("settings", "rows"),
    [
        ({"best_of": 5}, 5),
        ({"match_length": 7, "crawford": True}, 13),
        ({"match_length": 25}, 15),  # capped: a long match gets a slip of its own lines
        ({"games": 2}, 6),  # chess: room for tie-breaks
        ({}, 5),
    ],
)
def test_slip_rows_follow_the_round(settings, rows):
    assert slip_rows(settings) == rows


def test_the_draw_and_the_index(event, director_user):
    client = client_of(director_user)
    index = client.get(f"/director/t/{event.slug}/print/").content.decode()
    assert index.count("Pairings and tables") == event.rounds.count()
    draw = client.get(f"/director/t/{event.slug}/print/draw/").content.decode()
    assert f"random seed {event.draw_random_seed}" in draw and 'class="bracket"' in draw


def test_only_the_directors_print(event, other_director_user):
    first = event.rounds.get(flight="main", number=1)
    for path in ("print/", "print/draw/", f"print/rounds/{first.pk}/pairings/"):
        assert client_of(other_director_user).get(f"/director/t/{event.slug}/{path}").status_code == 403
        assert Client().get(f"/director/t/{event.slug}/{path}").status_code == 302  # to the sign-in
