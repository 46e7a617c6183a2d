"""The GCG export of a game (SPEC §4.5, scrabble-czech-set.md "Game records"), read
back by a small GCG reader written here from the format, not from the writer: the
players, every move line's position and word notation, score and running total, the
withdrawn moves, exchanges, passes, points-penalty bonuses and end-rack lines, and the
final totals, compared with what the engine derives."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scrabble.game import EndRule, GameState, Settings, TurnKind, WordPenalty, finish
from games.scrabble.gcg import game_record, nickname
from games.scrabble.tiles import CZECH, TileSet
from tests.games.scrabble.turns import (
    REJECTED,
    SMALL,
    UPHELD,
    exchange,
    overscore,
    pass_,
    place,
    play,
    random_games,
    timeout,
    word_protest,
)

# --- A GCG reader ---------------------------------------------------------------------------

ENCODING = "#character-encoding UTF-8"
MOVE_LINE = re.compile(r">(?P<nick>[^:\s]+): (?P<rack>\S*) (?P<rest>.+)")
POSITION = re.compile(r"\d{1,2}[A-O]|[A-O]\d{1,2}")
SCORE = re.compile(r"[+-]\d+")


@dataclass(frozen=True)
class Event:
    nick: str
    kind: str  # place, withdrawn, exchange, pass, challenge, end_rack
    score: int
    total: int
    position: str = ""
    word: str = ""
    tiles: str = ""  # exchanged tiles (or their number); the rack of an end-rack line


@dataclass(frozen=True)
class Record:
    players: dict[str, str]  # nick -> full name, in player order
    title: str
    events: tuple[Event, ...]
    notes: tuple[str, ...]

    def totals(self) -> dict[str, int]:
        """Each player's last total (0 if they have no line)."""
        last = {nick: 0 for nick in self.players}
        for event in self.events:
            last[event.nick] = event.total
        return last


def read_gcg(text: str) -> Record:
    """Read a GCG file; asserts what the format requires, including that every line's
    total is the player's previous total plus the line's score."""
    lines = text.splitlines()
    assert lines[0] == ENCODING, lines[0]
    players: dict[str, str] = {}
    title = ""
    events: list[Event] = []
    notes: list[str] = []
    running: Counter[str] = Counter()
    for line in lines[1:]:
        if not line.strip():
            continue
        if line.startswith("#"):
            pragma, _, value = line[1:].partition(" ")
            if re.fullmatch(r"player\d", pragma):
                nick, _, name = value.partition(" ")
                assert int(pragma[-1]) == len(players) + 1 and nick not in players
                players[nick] = name
            elif pragma == "title":
                title = value
            elif pragma == "note":
                notes.append(value)
            else:
                raise AssertionError(f"unknown pragma {line!r}")
            continue
        match = MOVE_LINE.fullmatch(line)
        assert match, f"not a GCG line: {line!r}"
        nick, rack, tokens = match["nick"], match["rack"], match["rest"].split()
        assert nick in players, line
        first = tokens[0]
        if first == "--":
            kind, fields, rest = "withdrawn", {}, tokens[1:]
        elif first == "(challenge)":
            kind, fields, rest = "challenge", {}, tokens[1:]
        elif first.startswith("(") and first.endswith(")"):
            kind, fields, rest = "end_rack", {"tiles": first[1:-1]}, tokens[1:]
            if rack:
                assert rack == fields["tiles"], line  # a player's own rack: RACK (RACK) -value
        elif first == "-":
            kind, fields, rest = "pass", {}, tokens[1:]
        elif first.startswith("-"):
            kind, fields, rest = "exchange", {"tiles": first[1:]}, tokens[1:]
        else:
            assert POSITION.fullmatch(first), line
            kind, fields, rest = "place", {"position": first, "word": tokens[1]}, tokens[2:]
        assert len(rest) == 2 and SCORE.fullmatch(rest[0]) and re.fullmatch(r"-?\d+", rest[1]), line
        score, total = int(rest[0]), int(rest[1])
        running[nick] += score
        assert total == running[nick], f"running total broken at {line!r}"
        events.append(Event(nick=nick, kind=kind, score=score, total=total, **fields))
    return Record(players=players, title=title, events=tuple(events), notes=tuple(notes))


def turn_groups(record: Record) -> tuple[list[list[Event]], list[Event]]:
    """The events of each turn (a move line, then its withdrawal and bonus lines), and
    the end-rack lines."""
    groups: list[list[Event]] = []
    end: list[Event] = []
    for event in record.events:
        if event.kind == "end_rack":
            end.append(event)
        elif event.kind in ("withdrawn", "challenge"):
            groups[-1].append(event)
        else:
            assert not end, "a move after the end racks"
            groups.append([event])
    return groups, end


def assert_matches_the_engine(record: Record, state: GameState, names: tuple[str, ...]) -> None:
    nicks = list(record.players)
    assert list(record.players.values()) == list(names)
    groups, end = turn_groups(record)
    assert len(groups) == len(state.lines)
    for group, line in zip(groups, state.lines, strict=True):
        player = nicks[line.turn.player]
        assert {event.nick for event in group} == {player}
        move = group[0]
        kind = line.turn.kind
        if kind == TurnKind.PLACE:
            assert (move.kind, move.position, move.word) == (
                "place",
                line.placement.position.gcg,
                line.placement.notation,
            )
            withdrawn = [event for event in group if event.kind == "withdrawn"]
            assert len(withdrawn) == line.void
            assert move.score + sum(event.score for event in withdrawn) == line.score
        elif kind == TurnKind.EXCHANGE:
            assert (move.kind, move.tiles, move.score) == ("exchange", str(line.turn.exchanged), 0)
        else:
            assert (move.kind, move.score) == ("pass", 0)
        assert sum(event.score for event in group if event.kind == "challenge") == line.bonus
        assert group[-1].total == line.totals_after[line.turn.player]
    totals = record.totals()
    if state.final_scores is None:
        assert not end
        assert tuple(totals[nick] for nick in nicks) == state.scores
    else:
        assert {event.nick: event.score for event in end} == {
            nicks[player]: adjustment for player, adjustment in enumerate(state.adjustments) if adjustment
        }
        assert tuple(totals[nick] for nick in nicks) == state.final_scores


# --- The export of a played game ---------------------------------------------------------------

NAMES = ("Jana Nováková", "Petr Svoboda")


def played_game() -> GameState:
    """Points per word for a lost word protest; ends blocked after four scoreless turns."""
    turns = [
        place(0, "8D", "SLOVA", 12),
        place(1, "9G", "ON", 10, overscore(0)),  # true score 8: corrected, Petr crossed
        # Ř on H4 (DL) 8, E 1, a blank Š 0, E 1, then the A and N already there: 12
        place(0, "H4", "ŘEšE..", 12, word_protest(1, "ŘEŠEAN", REJECTED)),  # +5 for Jana
        place(1, "D8", ".EN", 3, word_protest(0, "SEN", UPHELD)),  # void: taken off
        exchange(0, 3),
        pass_(1),
        timeout(0),
    ]
    state = play(turns, Settings(word_penalty=WordPenalty.POINTS_PER_WORD))
    # PTÁČEK? = 1+1+2+4+1+1+0 = 10, DUBÍNEX = 1+2+3+2+1+1+10 = 20
    return finish(state, ["PTÁČEK?", "DUBÍNEX"])


def test_a_played_game_reads_back_move_by_move():
    state = played_game()
    assert state.scores == (12 + 12 + 5, 8) and state.final_scores == (19, -12)
    text = game_record(state, NAMES, "Finále, hra 1")
    record = read_gcg(text)
    assert record.players == {"jana": "Jana Nováková", "petr": "Petr Svoboda"}
    assert record.title == "Finále, hra 1"
    summary = [(e.nick, e.kind, e.position, e.word, e.tiles, e.score, e.total) for e in record.events]
    assert summary == [
        ("jana", "place", "8D", "SLOVA", "", 12, 12),
        ("petr", "place", "9G", "ON", "", 8, 8),  # the corrected score
        ("jana", "place", "H4", "ŘEšE..", "", 12, 24),  # the blank in lower case, the tiles there as "."
        ("jana", "challenge", "", "", "", 5, 29),
        ("petr", "place", "D8", ".EN", "", 3, 11),
        ("petr", "withdrawn", "", "", "", -3, 8),
        ("jana", "exchange", "", "", "3", 0, 29),
        ("petr", "pass", "", "", "", 0, 8),
        ("jana", "pass", "", "", "", 0, 29),
        ("jana", "end_rack", "", "", "PTÁČEK?", -10, 19),
        ("petr", "end_rack", "", "", "DUBÍNEX", -20, -12),
    ]
    assert_matches_the_engine(record, state, NAMES)
    assert record.totals() == {"jana": 19, "petr": -12}


def test_the_file_is_utf8_with_the_encoding_line_first():
    text = game_record(played_game(), NAMES)
    assert text.splitlines()[0] == ENCODING
    assert text.encode("utf-8").decode("utf-8") == text and "Ř" in text
    assert not any(line.startswith("#title") for line in text.splitlines())
    assert text.endswith("\n")


def test_protests_penalties_and_special_passes_are_notes():
    notes = read_gcg(game_record(played_game(), NAMES)).notes
    assert "overscore protest upheld: 10 corrected to 8" in notes
    assert "protest by jana (overscore): upheld" in notes
    assert "penalty cross for petr" in notes
    assert "protest by petr (word ŘEŠEAN): rejected" in notes
    assert "protest by jana (word SEN): upheld" in notes
    assert "timeout pass" in notes


@pytest.mark.parametrize(
    ("end_rule", "lines", "final"),
    [
        # AAABB?? is worth 7: Jana -7, Petr +7; north american: Petr +14, Jana nothing
        pytest.param(
            EndRule.INTERNATIONAL,
            [("petr", "AABB??A", 7, 97), ("jana", "AABB??A", -7, 13)],
            (13, 97),
            id="international",
        ),
        pytest.param(EndRule.NORTH_AMERICAN, [("petr", "AABB??A", 14, 104)], (20, 104), id="north_american"),
    ],
)
def test_going_out_the_end_rack_lines(end_rule, lines, final):
    setting = Settings(tile_set=SMALL, end_rule=end_rule)
    state = play([place(0, "8D", "AAABBB", 20), place(1, "D1", "CCCCAAB.", 90)], setting)
    state = finish(state, ["AABB??A", ""])
    record = read_gcg(game_record(state, NAMES))
    end = [(e.nick, e.tiles, e.score, e.total) for e in record.events if e.kind == "end_rack"]
    assert sorted(end) == sorted(lines)
    assert tuple(record.totals().values()) == final == state.final_scores
    assert_matches_the_engine(record, state, NAMES)


def test_going_out_in_a_three_player_game_adds_both_opponents_racks():
    tiles = TileSet(name="small3", letters={"A": (1, 11), "B": (2, 8), "C": (3, 6)}, blanks=2)
    setting = Settings(players=3, tile_set=tiles)
    turns = [place(0, "8D", "AAABBB", 20), place(1, "D8", ".CC", 7), place(2, "E1", "CCCCAAB.", 84)]
    state = finish(play(turns, setting), ["AAAAB??", "AABBB", ""])  # worth 6 and 8
    names = ("Jana Nováková", "Petr Svoboda", "Eva Černá")
    record = read_gcg(game_record(state, names))
    end = [(e.nick, e.tiles, e.score, e.total) for e in record.events if e.kind == "end_rack"]
    assert end == [("jana", "AAAAB??", -6, 14), ("petr", "AABBB", -8, -1), ("eva", "AAAAB??AABBB", 14, 98)]
    assert_matches_the_engine(record, state, names)


def test_a_game_in_progress_has_no_end_rack_lines():
    state = play([place(0, "8D", "SLOVA", 12), exchange(1, 7), place(0, "9G", "ON", 8)])
    record = read_gcg(game_record(state, NAMES))
    assert [e.kind for e in record.events] == ["place", "exchange", "place"]
    assert_matches_the_engine(record, state, NAMES)


def test_a_points_penalty_per_turn_is_one_challenge_line():
    setting = Settings(word_penalty=WordPenalty.POINTS_PER_TURN, penalty_points=10)
    protests = (word_protest(0, "ON", REJECTED), word_protest(0, "VO", REJECTED))
    state = play([place(0, "8D", "SLOVA", 12), place(1, "9G", "ON", 8, *protests)], setting)
    record = read_gcg(game_record(state, NAMES))
    assert [(e.kind, e.score, e.total) for e in record.events if e.nick == "petr"] == [
        ("place", 8, 8),
        ("challenge", 10, 18),
    ]
    assert_matches_the_engine(record, state, NAMES)


# --- Nicknames ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("names", "nicks"),
    [
        pytest.param(["Jana Nováková", "Petr Svoboda"], ["jana", "petr"], id="first_names"),
        pytest.param(["Jana Nováková", "Jana Dvořáková"], ["jana", "jana2"], id="same_first_name"),
        pytest.param(["Jana", "Jana", "Jana"], ["jana", "jana2", "jana3"], id="three_of_a_kind"),
        pytest.param(["Řehoř Šťastný", "Čeněk Žák"], ["rehor", "cenek"], id="czech_letters_lose_their_accents"),
        pytest.param(["Жора", ""], ["player", "player2"], id="no_ascii_letters"),
        pytest.param(["O'Neil Smith", "Anne-Marie X"], ["oneil", "annemarie"], id="punctuation_dropped"),
    ],
)
def test_nicknames_are_ascii_and_unique(names, nicks):
    taken: set[str] = set()
    assert [nickname(name, taken) for name in names] == nicks
    assert taken == set(nicks)


def test_nicknames_with_the_same_first_name_read_back_as_two_players():
    names = ("Jana Nováková", "Jana Dvořáková")
    state = play([place(0, "8D", "SLOVA", 12), place(1, "9G", "ON", 8)])
    record = read_gcg(game_record(state, names))
    assert record.players == {"jana": "Jana Nováková", "jana2": "Jana Dvořáková"}
    assert_matches_the_engine(record, state, names)


# --- Any game reads back -------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(random_games(), st.data())
def test_any_game_reads_back_with_the_engines_totals(state, data):
    names = ("Jana Nováková", "Petr Svoboda", "Eva Černá")[: state.settings.players]
    if state.ended:
        left = Counter({letter: CZECH.count(letter) for letter in CZECH.letter_set} | {"?": CZECH.blanks})
        left.subtract("?" if tile.blank else tile.letter for tile in state.board.values())
        tiles = data.draw(st.permutations(sorted(left.elements())))
        racks, at = [], 0
        for size in state.racks:
            racks.append("".join(tiles[at : at + size]))
            at += size
        state = finish(state, racks)
    assert_matches_the_engine(read_gcg(game_record(state, names)), state, names)
