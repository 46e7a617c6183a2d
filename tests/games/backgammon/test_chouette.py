"""Chouette (SPEC §3.3): the line, one game's points and rotation, the ledger and the
settlement.

Expected values are worked out by hand from the rules: every member still in at the end
wins or loses kind × their cube; a member who dropped the box's double pays the cube
before the double (a drop is recorded with the cube offered: a double to 4 dropped pays
2), and the box pays the same when it drops a member's double; the box's result is the
negative of the team's. Rotation: the captain who dropped goes to the end at once; the
box keeps its seat if it beats the acting captain (who goes to the end), else the acting
captain becomes box and the box goes to the end. Refusals are RuleErrors whose messages
name the player and say what to fix; the tests pin the part a person needs.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.backgammon.chouette import (
    Board,
    ChouetteError,
    ChouetteGame,
    GameScore,
    MemberCube,
    Payment,
    Settings,
    join,
    leave,
    ledger,
    line_from_order,
    line_from_rolls,
    roll_line,
    score_game,
    settle,
    team_of,
)
from games.backgammon.scoring import CubeAction, Kind
from games.text import RuleError

LINE = ("B", "C", "T1", "T2", "T3")
SIX = ("B", "C", "P", "T3", "T4", "T5")
ONE = Settings(cubes="one")
MANY = Settings(cubes="many")
took = MemberCube  # MemberCube(value, owner): still in at the end
drop = MemberCube.member_drops
box_drops = MemberCube.box_drops


def score(line=LINE, rules=MANY, **facts) -> GameScore:
    return score_game(line, rules, ChouetteGame(**facts))


def refused(fragment: str, line=LINE, rules=MANY, **facts) -> str:
    """score_game refuses the game with a RuleError containing ``fragment``."""
    with pytest.raises(RuleError) as error:
        score(line, rules, **facts)
    assert fragment in str(error.value)
    return str(error.value)


# --- Rotation and points: the plain cases -------------------------------------------------


@pytest.mark.parametrize(
    ("line", "winner", "points", "next_line"),
    [
        (("A", "B", "C"), "box", {"A": 2, "B": -1, "C": -1}, ("A", "C", "B")),
        (("A", "B", "C"), "team", {"A": -2, "B": 1, "C": 1}, ("B", "C", "A")),
        (LINE, "box", {"B": 4, "C": -1, "T1": -1, "T2": -1, "T3": -1}, ("B", "T1", "T2", "T3", "C")),
        (LINE, "team", {"B": -4, "C": 1, "T1": 1, "T2": 1, "T3": 1}, ("C", "T1", "T2", "T3", "B")),
    ],
)
@pytest.mark.parametrize("rules", [ONE, MANY], ids=["one-cube", "many-cubes"])
def test_box_who_beats_the_captain_stays_and_the_captain_goes_to_the_end_else_the_captain_becomes_box(
    line, winner, points, next_line, rules
):
    result = score(line, rules, board=Board(winner))
    assert result.points == points
    assert result.next_line == next_line
    assert result.acting_captain == line[1]
    assert result.box_won is (winner == "box")


def test_the_points_list_every_player_in_line_order():
    assert list(score(board=Board("box")).points) == list(LINE)


# --- One cube -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("board", "points", "next_line"),
    [
        # the box doubles to 2: T1 and T3 drop (pay 1 each), C and T2 take and own the cube
        (Board("box", Kind.GAMMON), {"B": 10, "C": -4, "T1": -1, "T2": -4, "T3": -1}, ("B", "T1", "T2", "T3", "C")),
        (Board("team"), {"B": -2, "C": 2, "T1": -1, "T2": 2, "T3": -1}, ("C", "T1", "T2", "T3", "B")),
    ],
)
def test_one_cube_box_doubles_two_members_drop_and_pay_the_cube_before_the_double(board, points, next_line):
    result = score(
        rules=ONE,
        cubes={"C": took(2, "member"), "T1": drop(2), "T2": took(2, "member"), "T3": drop(2)},
        board=board,
    )
    assert result.points == points
    assert result.next_line == next_line  # T1 and T3 dropped but keep their places


def test_one_cube_the_boxs_drop_applies_to_the_whole_team_still_in():
    # box doubled to 2 (T3 dropped), the team redoubled to 4 and the box dropped: everyone still in wins 2
    result = score(
        rules=ONE,
        cubes={member: box_drops(4, "member") for member in ("C", "T1", "T2")} | {"T3": drop(2)},
    )
    assert result.points == {"B": -5, "C": 2, "T1": 2, "T2": 2, "T3": -1}
    assert result.next_line == ("C", "T1", "T2", "T3", "B")


def test_one_cube_a_member_who_dropped_early_pays_less_than_the_team_later_plays_for():
    # box doubles to 2: T2 drops; team redoubles to 4, box takes; box redoubles to 8: T1 drops; C takes
    result = score(
        line=("B", "C", "T1", "T2"),
        rules=ONE,
        cubes={"C": took(8, "member"), "T1": drop(8, "box"), "T2": drop(2)},
        board=Board("team"),
    )
    assert result.points == {"B": -3, "C": 8, "T1": -4, "T2": -1}


# --- Many cubes ---------------------------------------------------------------------------

BEAVERS = Settings(cubes="many", beavers=True)
BEAVERED = MemberCube(4, "member", history=(("box", CubeAction.DOUBLE), ("member", CubeAction.BEAVER)))


@pytest.mark.parametrize(
    ("board", "points", "next_line"),
    [
        # C took the box's double (2); T1 beavered it (4, T1 owns it); the box dropped T2's double (T2 wins 1);
        # T3 doubled and the box took (2, the box owns it).
        (Board("box"), {"B": 7, "C": -2, "T1": -4, "T2": 1, "T3": -2}, ("B", "T1", "T2", "T3", "C")),
        (Board("team", Kind.GAMMON), {"B": -17, "C": 4, "T1": 8, "T2": 1, "T3": 4}, ("C", "T1", "T2", "T3", "B")),
    ],
)
def test_many_cubes_each_member_wins_or_loses_their_own_cube_against_the_box(board, points, next_line):
    result = score(
        rules=BEAVERS,
        cubes={"C": took(2, "member"), "T1": BEAVERED, "T2": box_drops(2), "T3": took(2, "box")},
        board=board,
    )
    assert result.points == points
    assert result.next_line == next_line


def test_many_cubes_the_box_wins_one_members_cube_by_a_drop_and_loses_anothers_on_the_board():
    result = score(
        line=("B", "C", "T1"),
        cubes={"C": took(4, "box"), "T1": drop(4, "box")},
        board=Board("team"),
    )
    assert result.points == {"B": -2, "C": 4, "T1": -2}


def test_many_cubes_a_member_not_named_keeps_an_untouched_cube():
    result = score(cubes={"T2": took(2, "member")}, board=Board("box"))
    assert result.points == {"B": 5, "C": -1, "T1": -1, "T2": -2, "T3": -1}


def test_when_the_box_drops_the_captains_double_the_captain_becomes_box_whatever_the_board_does_after():
    # many cubes: the box drops C's double (C wins 1); T1 plays the board on for T1's own cube and loses it
    result = score(
        line=("B", "C", "T1", "T2"),
        cubes={"C": box_drops(2), "T1": took(2, "box"), "T2": drop(2)},
        board=Board("box"),
    )
    assert result.points == {"B": 2, "C": 1, "T1": -2, "T2": -1}
    assert result.box_won is False
    assert result.acting_captain == "C"
    assert result.next_line == ("C", "T1", "T2", "B")


# --- The captain drops, a teammate takes over (SPEC's example) ----------------------------

SPEC_CUBES = {"C": drop(2), "T1": took(2, "member"), "T2": took(2, "member"), "T3": drop(2)}


@pytest.mark.parametrize("rules", [ONE, MANY], ids=["one-cube", "many-cubes"])
@pytest.mark.parametrize(
    ("board", "points", "next_line"),
    [
        (Board("box"), {"B": 6, "C": -1, "T1": -2, "T2": -2, "T3": -1}, ("B", "T2", "T3", "C", "T1")),
        (Board("team"), {"B": -2, "C": -1, "T1": 2, "T2": 2, "T3": -1}, ("T1", "T2", "T3", "C", "B")),
    ],
    ids=["box-beats-T1", "T1-beats-box"],
)
def test_spec_example_captain_drops_t1_takes_over_and_c_goes_to_the_end_at_once(rules, board, points, next_line):
    result = score(rules=rules, cubes=SPEC_CUBES, board=board)
    assert result.acting_captain == "T1"
    assert result.points == points
    assert result.next_line == next_line


def test_spec_example_with_the_takeover_named_explicitly_gives_the_same_line():
    named = score(cubes=SPEC_CUBES, board=Board("box"), takeover="T1")
    assert named.next_line == ("B", "T2", "T3", "C", "T1")


@pytest.mark.parametrize(
    ("board", "next_line"),
    [(Board("box"), ("B", "T1", "T3", "C", "T2")), (Board("team"), ("T2", "T1", "T3", "C", "B"))],
)
def test_teammates_may_agree_that_a_later_taker_takes_over_the_board(board, next_line):
    cubes = {"C": drop(2), "T1": took(2, "member"), "T2": took(2, "member"), "T3": took(2, "member")}
    result = score(rules=ONE, cubes=cubes, board=board, takeover="T2")
    assert result.acting_captain == "T2"
    assert result.next_line == next_line


def test_by_default_the_first_taker_in_line_order_takes_over_and_a_member_who_dropped_keeps_their_place():
    cubes = {"C": drop(2), "T1": drop(2), "T2": took(2, "member"), "T3": took(2, "member")}
    result = score(rules=ONE, cubes=cubes, board=Board("box"))
    assert result.acting_captain == "T2"
    assert result.next_line == ("B", "T1", "T3", "C", "T2")  # T1 dropped, keeps its place and captains next


def test_many_cubes_a_member_the_box_never_doubled_can_take_over_the_board():
    result = score(cubes={"C": drop(2)}, board=Board("team"))
    assert result.acting_captain == "T1"
    assert result.points == {"B": -2, "C": -1, "T1": 1, "T2": 1, "T3": 1}
    assert result.next_line == ("T1", "T2", "T3", "C", "B")


# --- Everyone drops -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "cubes", "points"),
    [
        (ONE, dict.fromkeys(LINE[1:], drop(2)), {"B": 4, "C": -1, "T1": -1, "T2": -1, "T3": -1}),
        (
            MANY,
            {"C": drop(2), "T1": drop(4, "box"), "T2": drop(2), "T3": drop(8, "box")},
            {"B": 8, "C": -1, "T1": -2, "T2": -1, "T3": -4},
        ),
    ],
    ids=["one-cube", "many-cubes"],
)
def test_when_everyone_drops_no_board_is_played_the_box_stays_and_the_captain_goes_to_the_end(rules, cubes, points):
    result = score(rules=rules, cubes=cubes)
    assert result.points == points
    assert result.acting_captain is None
    assert result.box_won is True
    assert result.next_line == ("B", "T1", "T2", "T3", "C")


# --- Gammons, backgammons, resignations ---------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "cube", "resigned", "captain", "other"),
    [
        (Kind.SINGLE, 1, False, 1, 1),
        (Kind.GAMMON, 1, False, 2, 2),
        (Kind.BACKGAMMON, 1, False, 3, 3),
        (Kind.GAMMON, 2, False, 4, 2),
        (Kind.BACKGAMMON, 4, False, 12, 3),
        (Kind.BACKGAMMON, 64, False, 192, 3),
        (Kind.GAMMON, 8, True, 16, 2),
        (Kind.SINGLE, 2, True, 2, 1),
    ],
)
@pytest.mark.parametrize("winner", ["box", "team"])
def test_every_member_still_in_scores_kind_times_their_cube(kind, cube, resigned, captain, other, winner):
    cubes = {"B2": took(cube, "member")} if cube > 1 else {}
    result = score(("A", "B2", "C"), cubes=cubes, board=Board(winner, kind, resigned))
    sign = 1 if winner == "team" else -1
    assert result.points == {"A": -sign * (captain + other), "B2": sign * captain, "C": sign * other}


def test_a_board_kind_given_as_text_is_read():
    assert score(("A", "B", "C"), board=Board("box", "gammon")).points == {"A": 4, "B": -2, "C": -2}


# --- Money options: Jacoby and automatic doubles ------------------------------------------

JACOBY = Settings(jacoby=True)


@pytest.mark.parametrize(
    ("rules", "cube", "automatic", "kind", "expected"),
    [
        (JACOBY, took(1), 0, Kind.GAMMON, 1),  # untouched cube: the gammon counts single
        (JACOBY, took(1), 0, Kind.BACKGAMMON, 1),
        (JACOBY, took(2, "member"), 0, Kind.GAMMON, 4),  # turned cube: the gammon counts 2 × 2
        (JACOBY, took(2, "box"), 0, Kind.BACKGAMMON, 6),
        (Settings(jacoby=True, automatic_doubles_limit=1), took(2), 1, Kind.GAMMON, 4),  # an automatic double turns it
        (Settings(), took(1), 0, Kind.GAMMON, 2),  # no Jacoby rule
    ],
)
def test_jacoby_counts_a_gammon_single_only_on_an_untouched_cube(rules, cube, automatic, kind, expected):
    cubes = {"B2": cube, "C": took(2**automatic)}
    result = score(("A", "B2", "C"), rules, cubes=cubes, board=Board("team", kind), automatic_doubles=automatic)
    assert result.points["B2"] == expected


def test_jacoby_applies_cube_by_cube_in_a_many_cube_session():
    result = score(("A", "B", "C"), JACOBY, cubes={"C": took(2, "member")}, board=Board("box", Kind.GAMMON))
    assert result.points == {"A": 5, "B": -1, "C": -4}


def test_after_two_automatic_doubles_every_untouched_cube_starts_on_4():
    rules = Settings(automatic_doubles_limit=3)
    result = score(("A", "B", "C"), rules, board=Board("box"), automatic_doubles=2)
    assert result.points == {"A": 8, "B": -4, "C": -4}


# --- Box partner --------------------------------------------------------------------------

PARTNER = Settings(box_partner=True)


@pytest.mark.parametrize(
    ("cubes", "winner", "points", "next_line"),
    [
        # the team loses 2 + 1 + 1 + 1 = 5: the box wins 3 (the odd point), the partner 2
        (
            {"C": took(2, "member")},
            "box",
            {"B": 3, "C": -2, "P": 2, "T3": -1, "T4": -1, "T5": -1},
            ("B", "P", "T3", "T4", "T5", "C"),
        ),
        (
            {"C": took(2, "member")},
            "team",
            {"B": -3, "C": 2, "P": -2, "T3": 1, "T4": 1, "T5": 1},
            ("C", "P", "T3", "T4", "T5", "B"),
        ),
        ({}, "box", {"B": 2, "C": -1, "P": 2, "T3": -1, "T4": -1, "T5": -1}, ("B", "P", "T3", "T4", "T5", "C")),
    ],
)
def test_the_box_partner_shares_the_boxs_result_and_an_odd_point_goes_to_the_box(cubes, winner, points, next_line):
    result = score(SIX, PARTNER, cubes=cubes, board=Board(winner))
    assert result.partner == "P"
    assert result.points == points
    assert result.next_line == next_line


def test_the_box_partner_is_the_seat_after_the_captain_and_is_not_on_the_team():
    assert team_of(SIX, PARTNER) == ("C", "T3", "T4", "T5")
    assert team_of(SIX, MANY) == ("C", "P", "T3", "T4", "T5")


def test_a_box_partner_needs_six_players():
    refused("A box partner needs at least 6 players; this line has 5.", LINE, PARTNER, board=Board("box"))


def test_the_box_partner_plays_no_cube():
    refused("P is the box's partner this game and plays no cube", SIX, PARTNER, cubes={"P": took(2, "member")})


def test_the_box_partner_cannot_take_over_the_board():
    refused(
        "P cannot take over the board for the team: P is the box's partner.",
        SIX,
        PARTNER,
        cubes={"C": drop(2)},
        board=Board("box"),
        takeover="P",
    )


# --- Bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize("value", [3, 0, 128, -2, True, "2", 2.0, None])
def test_a_cube_that_is_not_a_power_of_two_up_to_64_is_refused(value):
    message = refused("T1's cube shows", cubes={"T1": took(value, "member")}, board=Board("box"))
    assert "a cube is 1 (in the centre), 2, 4, 8, 16, 32 or 64" in message


@pytest.mark.parametrize("value", [3, 128, True])
def test_a_dropped_double_to_a_cube_that_does_not_exist_is_refused(value):
    refused("T1's cube shows", cubes={"T1": drop(value)}, board=Board("box"))


def test_a_member_who_dropped_cannot_also_win_the_board():
    message = refused(
        "nobody on the team is left to win or lose the board",
        cubes=dict.fromkeys(LINE[1:], drop(2)),
        board=Board("team"),
    )
    assert "Remove the board result" in message


def test_a_member_who_dropped_cannot_take_over_the_board():
    refused(
        "T3 cannot take over the board: T3 dropped the box's double too. Name a teammate who took.",
        cubes=SPEC_CUBES,
        board=Board("team"),
        takeover="T3",
    )


def test_members_still_in_need_a_board_result():
    refused("T1, T2 played on to the end: record the board result", cubes=SPEC_CUBES)


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"captain": "Z"}, "The game names Z as captain, but Z is not in the line; the line's captain is C."),
        ({"captain": "T1"}, "The game names T1 as captain, but the line's captain is C."),
        ({"box": "Z"}, "The game names Z as box, but Z is not in the line"),
    ],
)
def test_a_recorded_captain_or_box_must_be_the_lines(facts, message):
    refused(message, board=Board("box"), **facts)


@pytest.mark.parametrize(
    ("cubes", "message"),
    [
        ({"T1": drop(4, "member")}, "The box cannot double T1's cube: T1 owns it."),
        ({"T1": box_drops(4, "box")}, "T1 cannot double the box: the box owns T1's cube."),
        (
            {"T1": MemberCube(4, "member", history=(("box", "double"), ("member", "take"), ("box", "double")))},
            "T1's cube against the box (a = the box, b = T1): Cube action 3: player a doubles without owning the cube.",
        ),
    ],
)
def test_a_double_by_a_player_who_does_not_own_the_cube_is_refused(cubes, message):
    refused(message, cubes=cubes, board=Board("box"))


@pytest.mark.parametrize(
    ("cube", "message"),
    [
        (took(4), "T1's cube shows 4 but is recorded in the centre, where it shows 1."),
        (took(1, "member"), "T1's cube is recorded as owned by the member but shows 1"),
        (drop(4), "T1's cube was in the centre at 1, so the dropped double offered 2, not 4."),
        (drop(2, "box"), "T1's cube was owned by the box, so it had been doubled already"),
        (drop(1), "Cube 1 cannot have been dropped."),
        (took(4, "sideways"), "T1's cube owner is"),
        (MemberCube(2, "member", dropped_by="nobody"), "T1's cube was dropped by"),
        (
            MemberCube(2, "box", history=(("box", "double"), ("member", "take"))),
            "T1's cube history leaves the cube with the member, but the record says the box",
        ),
        (MemberCube(2, "box", history=(("him", "double"),)), 'who acts is "box" or "member", not \'him\''),
        (MemberCube(2, "box", history=(("member", "push"),)), "T1's cube action 1 is one of double, take"),
    ],
)
def test_a_cube_whose_value_and_owner_do_not_fit_is_refused(cube, message):
    refused(message, cubes={"T1": cube}, board=Board("box"))


@pytest.mark.parametrize(
    ("cubes", "message"),
    [
        (
            {"C": took(2, "member"), "T1": took(4, "box")},
            "In a one-cube session everyone still in shares the team's cube, and the box's drop applies to all "
            "of them: T1's cube differs from C's.",
        ),
        ({"C": box_drops(2), "T1": took(2, "member")}, "T1's cube differs from C's"),
        ({"C": took(2, "member"), "T1": drop(4, "box")}, "T1 dropped the box's double to 4, but the team's one cube"),
        ({"C": took(2, "box"), "T1": drop(2)}, "T1 dropped the box's double to 2"),
    ],
)
def test_one_cube_session_everyone_still_in_shares_one_cube(cubes, message):
    refused(message, ("B", "C", "T1"), ONE, cubes=cubes, board=Board("box"))


@pytest.mark.parametrize(
    ("facts", "message"),
    [
        ({"cubes": {"B": took(2, "member")}}, "B is the box, who plays against every cube and has none"),
        ({"cubes": {"Z": took(2, "member")}}, "Z is not in this game's line, so has no cube"),
        ({"takeover": "T1"}, "T1 cannot take over the board: the captain C did not drop."),
        ({"takeover": "Z", "cubes": SPEC_CUBES}, "Z cannot take over the board: Z is not in this game's line."),
        ({"takeover": "B", "cubes": SPEC_CUBES}, "B cannot take over the board for the team: B is the box."),
        ({"automatic_doubles": 1}, "This session plays no automatic doubles; record 0 of them, not 1."),
        ({"automatic_doubles": -1}, "The number of automatic doubles is a whole number"),
        ({"board": Board("nobody")}, 'The board was won by "box" or "team"'),
        ({"board": Board("box", "triple")}, 'The board was won by a "single", "gammon" or "backgammon"'),
    ],
)
def test_a_game_that_does_not_fit_the_line_or_the_session_is_refused(facts, message):
    facts = {"board": Board("box")} | facts
    refused(message, **facts)


def test_automatic_doubles_beyond_the_sessions_limit_are_refused():
    refused(
        "This game had 2 automatic doubles; the session's limit is 1.",
        rules=Settings(automatic_doubles_limit=1),
        board=Board("box"),
        automatic_doubles=2,
    )


def test_after_an_automatic_double_a_cube_left_at_1_is_refused_and_names_the_member():
    refused(
        "T1's cube against the box (a = the box, b = T1): After 1 automatic doubles the cube is at least 2.",
        rules=Settings(automatic_doubles_limit=1),
        cubes={"T1": took(1)},
        board=Board("box"),
        automatic_doubles=1,
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"cubes": "two"}, 'The cubes setting is "one"'),
        ({"advice": "sometimes"}, 'The advice setting is "always", "never" or "after_double"'),
        ({"jacoby": "yes"}, "The jacoby setting is on or off"),
        ({"automatic_doubles_limit": 7}, "The limit of automatic doubles is a whole number from 0 (none) to 6"),
        ({"automatic_doubles_limit": True}, "The limit of automatic doubles"),
    ],
)
def test_bad_settings_are_refused(options, message):
    with pytest.raises(ChouetteError) as error:
        Settings(**options)
    assert message in str(error.value)


def test_a_chouette_error_translates_its_message_and_a_nested_scoring_message():
    with pytest.raises(ChouetteError) as error:
        score(cubes={"T1": drop(1)}, board=Board("box"))
    translated = error.value.translate(lambda message: f"<{message}>")
    assert translated.startswith("<T1's cube against the box")
    assert "<A dropped double is recorded with the cube offered" in translated


# --- The line: rolls, order, joining and leaving -----------------------------------------


@pytest.mark.parametrize(
    ("rolls", "line"),
    [
        ([{"a": 6, "b": 4, "c": 2}], ("a", "b", "c")),
        ([{"a": 2, "b": 4, "c": 6}], ("c", "b", "a")),
        ([{"a": 5, "b": 5, "c": 3}, {"a": 2, "b": 6}], ("b", "a", "c")),
        # two tied groups re-roll in the same round, each ordered among itself
        ([{"a": 6, "b": 6, "c": 2, "d": 2, "e": 4}, {"a": 1, "b": 3, "c": 5, "d": 4}], ("b", "a", "e", "c", "d")),
        # a three-way tie splits, and the two still tied roll once more
        ([{"a": 4, "b": 4, "c": 4}, {"a": 3, "b": 3, "c": 6}, {"a": 1, "b": 2}], ("c", "b", "a")),
        ([{"a": 3, "b": 3, "c": 3}, {"a": 1, "b": 2, "c": 3}], ("c", "b", "a")),
    ],
)
def test_line_from_rolls_orders_highest_first_and_ties_reroll_among_the_tied_only(rolls, line):
    assert line_from_rolls(rolls) == line
    assert line_from_rolls(rolls, players=sorted(line)) == line


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ([{"a": 5, "b": 5, "c": 1}], "a, b are still tied after round 1; add a round in which only the tied players"),
        ([{"a": 5, "b": 5, "c": 2, "d": 2}, {"a": 1, "b": 6, "c": 3, "d": 3}], "c, d are still tied after round 2"),
        ([{"a": 5, "b": 5, "c": 1}, {"a": 1, "b": 2, "c": 3}], "c rolled in round 2 but was not tied in round 1"),
        ([{"a": 5, "b": 5, "c": 1}, {"a": 1}], "b tied in round 1 and must roll again in round 2"),
        ([{"a": 5, "b": 4, "c": 1}, {"a": 1}], "Round 2 is not needed: nobody was tied in round 1."),
        ([{"a": 0, "b": 4, "c": 1}], "a rolled 0 in round 1; a die shows 1 to 6."),
        ([{"a": 7, "b": 4, "c": 1}], "a rolled 7 in round 1"),
        ([{"a": True, "b": 4, "c": 1}], "a rolled True in round 1"),
        ([{"a": "3", "b": 4, "c": 1}], "a rolled '3' in round 1"),
        ([{"a": 5, "b": 5, "c": 1}, {"a": 9, "b": 1}], "a rolled 9 in round 2"),
        ([{"a": 5, "b": 4}], "A chouette needs at least 3 players; the line has 2."),
        ([], "The rolls are a list of rounds"),
        ([{"": 5, "b": 4, "c": 1}], "A player is named by a non-empty id"),
    ],
)
def test_line_from_rolls_refuses_rolls_that_do_not_make_a_line(rolls, message):
    with pytest.raises(ChouetteError) as error:
        line_from_rolls(rolls)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("rolls", "message"),
    [
        ([{"a": 5, "b": 4, "c": 1}], "d did not roll in the first round"),
        ([{"a": 5, "b": 4, "c": 1, "d": 2, "e": 3}], "e rolled but is not one of this session's players"),
    ],
)
def test_line_from_rolls_checks_the_first_round_against_the_players(rolls, message):
    with pytest.raises(ChouetteError) as error:
        line_from_rolls(rolls, players=["a", "b", "c", "d"])
    assert message in str(error.value)


class Scripted:
    """A random source that returns the given dice in order."""

    def __init__(self, dice):
        self.dice = list(dice)

    def randint(self, a, b):
        assert (a, b) == (1, 6)
        return self.dice.pop(0)


def test_roll_line_rerolls_only_the_tied_players_until_the_order_is_complete():
    rolled = roll_line(["a", "b", "c", "d"], Scripted([5, 5, 2, 2, 3, 1, 6, 6, 4, 1]))
    assert rolled.rolls == ({"a": 5, "b": 5, "c": 2, "d": 2}, {"a": 3, "b": 1, "c": 6, "d": 6}, {"c": 4, "d": 1})
    assert rolled.line == ("a", "b", "c", "d")


@given(players=st.integers(3, 8), seed=st.integers(0, 2**32))
def test_roll_line_with_a_seeded_random_is_a_reproducible_permutation_that_its_rolls_replay(players, seed):
    names = [f"p{i}" for i in range(players)]
    rolled = roll_line(names, random.Random(seed))
    assert sorted(rolled.line) == sorted(names)
    assert roll_line(names, random.Random(seed)) == rolled
    assert line_from_rolls(rolled.rolls, players=names) == rolled.line


@pytest.mark.parametrize(
    ("players", "message"),
    [
        (["a", "b"], "A chouette needs at least 3 players; the line has 2."),
        (["a", "b", "a"], "a stands in the line twice"),
        (["a", "b", 3], "A player is named by a non-empty id"),
        ("abc", "The line is a list of players"),
    ],
)
def test_line_from_order_needs_three_distinct_players(players, message):
    with pytest.raises(ChouetteError) as error:
        line_from_order(players)
    assert message in str(error.value)


def test_line_from_order_keeps_the_directors_order():
    assert line_from_order(["x", "y", "z", "w"]) == ("x", "y", "z", "w")


def test_a_newcomer_joins_at_the_end_of_the_line():
    assert join(("a", "b", "c"), "d") == ("a", "b", "c", "d")
    with pytest.raises(ChouetteError, match="b is already in the line"):
        join(("a", "b", "c"), "b")


@pytest.mark.parametrize(
    ("player", "line"),
    [("a", ("b", "c", "d")), ("b", ("a", "c", "d")), ("d", ("a", "b", "c"))],
    ids=["box-leaves-captain-becomes-box", "captain-leaves", "last-leaves"],
)
def test_a_player_who_leaves_closes_up_the_line(player, line):
    assert leave(("a", "b", "c", "d"), player) == line


@pytest.mark.parametrize(
    ("line", "player", "rules", "message"),
    [
        (("a", "b", "c"), "a", None, "a cannot leave: a chouette needs at least 3 players."),
        (("a", "b", "c", "d"), "z", None, "z is not in the line"),
        (SIX, "T5", PARTNER, "T5 cannot leave while the session plays with a box partner"),
    ],
)
def test_a_player_cannot_leave_a_line_that_would_be_too_short(line, player, rules, message):
    with pytest.raises(ChouetteError) as error:
        leave(line, player, rules)
    assert message in str(error.value)


# --- Ledger and settlement ----------------------------------------------------------------


def test_the_ledger_keeps_running_totals_after_every_game_and_a_player_who_left_keeps_theirs():
    rows = ledger([{"a": 2, "b": -1, "c": -1}, {"a": -3, "b": 1, "c": 1, "d": 1}, {"b": 2, "c": -1, "d": -1}])
    assert rows == [
        {"a": 2, "b": -1, "c": -1},
        {"a": -1, "b": 0, "c": 0, "d": 1},
        {"a": -1, "b": 2, "c": -1, "d": 0},
    ]


def test_the_ledger_refuses_a_game_that_does_not_sum_to_zero():
    with pytest.raises(ChouetteError, match="Game 2's points sum to 1, not 0"):
        ledger([{"a": 1, "b": -1, "c": 0}, {"a": 1, "b": 0, "c": 0}])


def test_the_ledger_reads_game_scores():
    first = score(("a", "b", "c"), board=Board("box"))
    assert ledger([first]) == [{"a": 2, "b": -1, "c": -1}]


def test_settle_scales_points_by_the_stake_in_cents():
    assert settle({"a": -3, "b": 3, "c": 0}, stake_cents=250) == [Payment("a", "b", 750)]


def test_settle_finds_the_fewest_payments_where_largest_to_largest_would_need_more():
    # {a, b, d} and {c, e} each sum to zero: 2 + 1 payments, where largest-to-largest pays 4 times
    payments = settle({"a": 2, "b": 3, "c": -4, "d": -5, "e": 4})
    assert len(payments) == 3
    assert sorted(payments) == [Payment("c", "e", 4), Payment("d", "a", 2), Payment("d", "b", 3)]


def test_settle_with_nothing_owed_pays_nothing():
    assert settle({"a": 0, "b": 0}) == []
    assert settle({}) == []


@pytest.mark.parametrize(
    ("totals", "stake", "message"),
    [
        ({"a": 1, "b": 0}, 1, "The totals sum to 1, not 0"),
        ({"a": 1, "b": -1}, 0, "The stake per point is a whole number of cents, at least 1"),
        ({"a": 1, "b": -1}, 1.5, "The stake per point"),
        ({"a": 1.0, "b": -1}, 1, "a's total is 1.0"),
    ],
)
def test_settle_refuses_totals_that_cannot_be_settled(totals, stake, message):
    with pytest.raises(ChouetteError) as error:
        settle(totals, stake_cents=stake)
    assert message in str(error.value)


def cleared(totals, payments, stake):
    left = {player: value * stake for player, value in totals.items()}
    for payment in payments:
        assert payment.amount > 0 and payment.amount % stake == 0
        left[payment.payer] += payment.amount
        left[payment.payee] -= payment.amount
    return all(value == 0 for value in left.values())


@given(values=st.lists(st.integers(-50, 50), min_size=1, max_size=15), stake=st.integers(1, 1000))
def test_settle_clears_every_balance_in_fewer_payments_than_players(values, stake):
    totals = {f"p{i}": value for i, value in enumerate(values)}
    totals["last"] = -sum(values)
    payments = settle(totals, stake_cents=stake)
    assert cleared(totals, payments, stake)
    owing = [player for player, value in totals.items() if value]
    assert len(payments) <= max(len(owing) - 1, 0)
    for payment in payments:
        assert totals[payment.payer] < 0 < totals[payment.payee]


# --- Property: random valid sessions ------------------------------------------------------


@st.composite
def session_settings(draw, players):
    return Settings(
        cubes=draw(st.sampled_from(["one", "many"])),
        jacoby=draw(st.booleans()),
        beavers=draw(st.booleans()),
        automatic_doubles_limit=draw(st.integers(0, 3)),
        advice=draw(st.sampled_from(["always", "never", "after_double"])),
        box_partner=players >= 6 and draw(st.booleans()),
    )


@st.composite
def chouette_games(draw, line, rules):
    """A valid game for this line: cubes that could have happened, a board result when
    anyone is still in, sometimes a named takeover."""
    team = team_of(line, rules)
    automatic = draw(st.integers(0, rules.automatic_doubles_limit))
    base, room = 2**automatic, 6 - automatic  # how many doubles fit under 64

    def in_play(most=room):
        turns = draw(st.integers(0, most))
        return MemberCube(base * 2**turns, None if turns == 0 else draw(st.sampled_from(["box", "member"])))

    def dropped(by, most=room):
        turns = draw(st.integers(1, most))
        doubler = "box" if by == "member" else "member"
        return MemberCube(base * 2**turns, None if turns == 1 else doubler, dropped_by=by)

    states = ["in"] + (["member_drops", "box_drops"] if room else [])
    cubes = {}
    if rules.cubes == "many":
        for member in team:
            state = draw(st.sampled_from(states))
            cubes[member] = in_play() if state == "in" else dropped(state.split("_")[0])
    else:
        shared_state = draw(st.sampled_from([state for state in states if state != "member_drops"]))
        shared = in_play() if shared_state == "in" else dropped("box")
        everyone_drops = room > 0 and draw(st.booleans()) and draw(st.booleans())
        # a member who dropped left at a box double below the team's final cube
        top = shared.value // base
        top_turns = top.bit_length() - 1
        if shared.still_in and shared.owner == "member":
            highest = top_turns
        else:
            highest = top_turns - 1
        for member in team:
            if everyone_drops:
                cubes[member] = dropped("member")
            elif highest >= 1 and draw(st.booleans()):
                cubes[member] = dropped("member", most=highest)
            else:
                cubes[member] = shared
        if not everyone_drops and all(cube.dropped_by == "member" for cube in cubes.values()):
            cubes[team[-1]] = shared
    board = None
    if any(cube.still_in for cube in cubes.values()):
        board = Board(draw(st.sampled_from(["box", "team"])), draw(st.sampled_from(list(Kind))), draw(st.booleans()))
    takeover = None
    takers = [member for member in team if cubes[member].dropped_by != "member"]
    if cubes[team[0]].dropped_by == "member" and takers and draw(st.booleans()):
        takeover = draw(st.sampled_from(takers))
    untouched = [member for member, cube in cubes.items() if cube == MemberCube(base)]
    for member in draw(st.lists(st.sampled_from(untouched), unique=True)) if untouched else []:
        del cubes[member]  # a member left out of the record keeps an untouched cube
    return ChouetteGame(cubes=cubes, board=board, takeover=takeover, automatic_doubles=automatic)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), players=st.integers(3, 8))
def test_every_game_of_a_random_session_sums_to_zero_and_the_line_stays_a_permutation(data, players):
    line = line_from_order([f"p{i}" for i in range(players)])
    rules = data.draw(session_settings(players))
    newcomers = iter(f"n{i}" for i in range(20))
    scores = []
    for _ in range(data.draw(st.integers(1, 8))):
        step = data.draw(st.sampled_from(["game", "game", "game", "join", "leave"]))
        if step == "join":
            line = join(line, next(newcomers))
        elif step == "leave" and len(line) > (6 if rules.box_partner else 3):
            line = leave(line, data.draw(st.sampled_from(line)), rules)
        else:
            game = data.draw(chouette_games(line, rules))
            result = score_game(line, rules, game)
            assert sum(result.points.values()) == 0
            assert set(result.points) == set(line)
            assert sorted(result.next_line) == sorted(line)
            if result.partner is not None:
                box_share, partner_share = result.points[line[0]], result.points[result.partner]
                assert abs(box_share) - abs(partner_share) in (0, 1)
            scores.append(result)
            line = result.next_line
    rows = ledger(scores)
    assert all(sum(row.values()) == 0 for row in rows)
    if rows:
        assert cleared(rows[-1], settle(rows[-1], stake_cents=100), 100)
