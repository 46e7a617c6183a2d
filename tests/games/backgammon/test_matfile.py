"""The match record export in the style of the JellyFish / gnubg .mat format."""

from games.backgammon.match import replay
from games.backgammon.matfile import MatchInfo, match_record
from games.backgammon.scoring import Ending, Game, Kind

INFO = MatchInfo(
    event='Brno "Open" 2026',
    round="Final",
    site="Brno",
    date="2026.11.22",
    player_a="Jana Nováková",
    player_b="Petr Svoboda",
)


def test_a_finished_match_gives_the_header_the_length_and_every_game():
    state = replay(
        3,
        True,
        [Game("a", Kind.GAMMON), Game("b"), Game("a", cube=2, ending=Ending.DROPPED)],
    )
    text = match_record(INFO, state)
    lines = text.splitlines()
    assert lines[0] == "; [Event \"Brno 'Open' 2026\"]"  # a quote would end the header value
    assert '; [Player 1 "Jana Nováková"]' in lines and '; [Player 2 "Petr Svoboda"]' in lines
    assert any(line.startswith("; [Note") and "Moves are not recorded" in line for line in lines)
    assert " 3 point match" in lines
    game_lines = [i for i, line in enumerate(lines) if line.startswith(" Game ")]
    assert [lines[i] for i in game_lines] == [" Game 1", " Game 2", " Game 3"]
    # The score line before each game, then who won how many points, in the winner's column.
    assert lines[game_lines[1] + 1].split() == ["Jana", "Nováková", ":", "2", "Petr", "Svoboda", ":", "0"]
    assert lines[game_lines[0] + 2] == "      Wins 2 points"
    assert lines[game_lines[1] + 2].strip() == "Wins 1 point" and lines[game_lines[1] + 2].startswith(" " * 30)
    assert lines[game_lines[2] + 2] == "      Wins 1 point and the match"
    assert text.endswith("\n")


def test_a_running_match_has_no_match_win_line():
    text = match_record(INFO, replay(5, True, [Game("b", Kind.BACKGAMMON)]))
    assert "and the match" not in text
    assert "Wins 3 points" in text
