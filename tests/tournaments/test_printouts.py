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
    assert "Player 001" not in html.split('class="pairings-byes"')[0]  # seed 1 has a bye: no table
    byes = "Player 001, Player 004, Player 002, Player 003"  # in bracket order
    assert f"Bye (through without playing): {byes}<" in html


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


# --- Tables shared by the rounds played together, and the draw of a big event ---------
@pytest.fixture
def with_consolation(director):
    # 12 players in a 16-bracket: 4 byes; a consolation flight and a match for third place.
    return make_tournament(director, players=12, round_plan="3", consolation=True, third_place_match=True)


def pairings_of(client, tournament, flight, number) -> str:
    """The printed part of a round's pairings page."""
    round_ = tournament.rounds.get(flight=flight, number=number)
    html = client.get(f"/director/t/{tournament.slug}/print/rounds/{round_.pk}/pairings/").content.decode()
    return html.split('class="print-sheet"')[1]


def tables_in(html: str) -> list[str]:
    return re.findall(r'class="num table-number">(\d+)<', html)


def test_the_rounds_played_together_are_printed_together_in_one_numbering_of_the_tables(
    with_consolation, director_user
):
    client = client_of(director_user)
    first = pairings_of(client, with_consolation, "main", 1)
    assert tables_in(first) == ["1", "2", "3", "4"] and "pairings-round" not in first  # 4 byes; alone
    second = pairings_of(client, with_consolation, "main", 2)
    assert second == pairings_of(client, with_consolation, "consolation", 1)  # one session, one sheet
    assert "Quarter-finals + Consolation: Quarter-finals" in second
    tables = tables_in(second)
    assert tables == [str(n) for n in range(1, len(tables) + 1)] and len(tables) > 4
    quarter_finals, consolation = second.split('class="pairings-round"')[1:]
    assert tables_in(quarter_finals) == ["1", "2", "3", "4"]
    last = pairings_of(client, with_consolation, "main", 4)
    assert last == pairings_of(client, with_consolation, "third_place", 1)
    assert last == pairings_of(client, with_consolation, "consolation", 3)
    assert tables_in(last) == ["1", "2", "3"]  # the final, the third place, the consolation's final
    index = client.get(f"/director/t/{with_consolation.slug}/print/").content.decode()
    assert index.count("Pairings and tables") == 4  # four sessions, seven rounds


def test_the_result_slips_of_a_session_are_one_per_table_with_each_rounds_lines(director, director_user):
    event = make_tournament(director, players=4, round_plan="3, 5", third_place_match=True)
    final = event.rounds.get(flight="main", number=2)
    url = f"/director/t/{event.slug}/print/rounds/{final.pk}/result-slips/"
    html = client_of(director_user).get(url).content.decode()
    slips = html.split('class="result-slip"')[1:]
    assert [re.search(r'class="slip-table">Table (\d+)<', slip)[1] for slip in slips] == ["1", "2"]
    assert "Final" in slips[0] and "Match for third place" in slips[1]
    assert [slip.count('<tr><td class="num">') for slip in slips] == [5, 5]  # best of 5 from round 2 on


def test_one_matchs_table_is_the_one_the_whole_event_gives_it(with_consolation):
    from tournaments import selectors

    view = selectors.tournament_view(with_consolation)
    tables = selectors.tables_of(view)
    for match in with_consolation.matches.all():
        match.tournament = with_consolation
        assert selectors.table_of(match) == tables.get(match.pk, "")


def test_a_big_draw_is_printed_32_players_a_page_then_its_last_16(director, director_user):
    event = make_tournament(director, players=64, round_plan="3")
    html = client_of(director_user).get(f"/director/t/{event.slug}/print/draw/").content.decode()
    assert html.count('class="draw-part is-page"') == 3
    assert "part 1 of 2" in html and "part 2 of 2" in html and "the last 16" in html
    pages = html.split('class="draw-part is-page"')[1:]

    def boxes_per_round(page: str) -> list[int]:
        return [r.count('<li class="bracket-match') for r in page.split('class="bracket-round"')[1:]]

    # Each half: 16 first-round matches and the rounds they lead to, down to one match.
    assert [boxes_per_round(page) for page in pages] == [[16, 8, 4, 2, 1], [16, 8, 4, 2, 1], [8, 4, 2, 1]]
    # Every player is on the first two pages exactly once.
    for number in range(1, 65):
        assert sum(page.count(f">Player {number:03d}<") for page in pages[:2]) == 1


def test_a_small_draw_is_one_page(event, director_user):
    html = client_of(director_user).get(f"/director/t/{event.slug}/print/draw/").content.decode()
    assert 'class="draw-part is-page"' not in html and html.count('class="draw-part"') == 1


def test_the_player_and_the_match_page_name_the_table_the_printouts_give(with_consolation):
    second = with_consolation.matches.get(flight="main", round_number=1, position=1)  # table 1: position 0 is a bye
    first_table = 'class="table-badge">Table 1<'
    assert first_table in Client().get(f"/p/{second.entry_a.private_key}/").content.decode()
    assert first_table in Client().get(f"/t/{with_consolation.slug}/m/{second.pk}/").content.decode()
    bye = with_consolation.matches.get(flight="main", round_number=1, position=0)
    assert "table-badge" not in Client().get(f"/t/{with_consolation.slug}/m/{bye.pk}/").content.decode()
