"""A chess tournament's records for other software: PGN of the games and the FIDE
tournament report (TRF16). Readers: a fixed number of queries per tournament.

**PGN** (``pgn``): one game per played game (forfeits too), with Event, Site, Date,
Round ("2.3": the bracket's round 2, game 3 of the mini-match, tie-breaks counted on),
White, Black, Result, TimeControl (White's, in the PGN form), the ratings, the
Termination as PGN names it, a ``Stage`` tag (classical, rapid, blitz, armageddon) and
the moves when they were entered.

**TRF** (``trf``): a knockout laid out as TRF rounds: each bracket round takes as many
TRF rounds as the longest mini-match in it had games; game n of a match goes into the
round's n-th TRF round. A bye of the draw is ``U`` in the round's first TRF round; a
walkover is ``+``/``-`` against the opponent. The consolation flight's round k shares
the columns of the main round k + 1 (its players are out of the main flight), the
match for third place those of the final. Points count every game, byes and walkovers
as wins; the rank is the knockout's final place (3 for a shared 3–4).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from clocks.controls import format_pgn
from games.chess import pgn, trf
from games.chess import services as chess_services
from games.chess.models import ChessGame, ColourLot
from games.chess.results import Termination
from games.game_log import GameRow
from tournaments import selectors
from tournaments.draws import CONSOLATION, THIRD_PLACE
from tournaments.models import Entry, Match, Tournament

PGN_TERMINATION = {
    Termination.FLAG: "time forfeit",
    Termination.FORFEIT: "abandoned",
    Termination.ARBITER: "adjudication",
}
TRF_CODE = {1.0: "1", 0.5: "=", 0.0: "0"}
TRF_FORFEIT_CODE = {1.0: "+", 0.0: "-"}


def _played(tournament: Tournament, matches: list[Match]):
    """Each match with its confirmed games and derived state (two queries)."""
    ids = [m.pk for m in matches]
    games: dict[int, list[ChessGame]] = defaultdict(list)
    for game in ChessGame.objects.filter(match__in=ids, status=GameRow.Status.CONFIRMED).order_by("match", "number"):
        games[game.match_id].append(game)
    lots: dict[int, list[ColourLot]] = defaultdict(list)
    for lot in ColourLot.objects.filter(match__in=ids):
        lots[lot.match_id].append(lot)
    for match in matches:
        if games[match.pk]:
            yield match, games[match.pk], chess_services.state_of(match, games[match.pk], lots[match.pk])


def _matches(tournament: Tournament) -> list[Match]:
    matches = list(
        tournament.matches.select_related("entry_a", "entry_b", "round").order_by("flight", "round_number", "position")
    )
    for match in matches:
        match.tournament = tournament
    return matches


# --- PGN --------------------------------------------------------------------------------------
def pgn_games(tournament: Tournament, matches: list[Match] | None = None) -> list[pgn.PgnGame]:
    games = []
    for match, rows, state in _played(tournament, matches if matches is not None else _matches(tournament)):
        for row, line in zip(rows, state.games, strict=True):
            white, black = match.entry_on(line.white), match.entry_on(line.black)
            stage = state.plan.stages[line.stage]
            headers = {
                "Event": tournament.name,
                "Site": tournament.venue or "?",
                "Date": pgn.pgn_date(row.entered_at.date() if row.entered_at else tournament.starts_on),
                "Round": f"{_round_number(match)}.{line.number}",
                "White": white.name,
                "Black": black.name,
                "TimeControl": format_pgn(stage.white_control) or "?",
            }
            if white.rating:
                headers["WhiteElo"] = str(white.rating)
            if black.rating:
                headers["BlackElo"] = str(black.rating)
            headers["Termination"] = PGN_TERMINATION.get(Termination(row.termination), "normal")
            headers["Stage"] = stage.kind.value
            games.append(pgn.PgnGame(headers=headers, moves=row.move_list, result=row.result))
    return games


def match_pgn(match: Match) -> str:
    return pgn.write_games(pgn_games(match.tournament, [match]))


def tournament_pgn(tournament: Tournament) -> str:
    return pgn.write_games(pgn_games(tournament))


def _round_number(match: Match) -> int:
    """The bracket round a match is played in (the consolation's round k alongside the
    main round k + 1; the match for third place alongside the final)."""
    if match.flight == CONSOLATION:
        return match.round_number + 1
    if match.flight == THIRD_PLACE:
        return (match.tournament.bracket_size or 2).bit_length() - 1  # the final's round
    return match.round_number


# --- TRF16 -------------------------------------------------------------------------------------
def tournament_trf(tournament: Tournament) -> str:
    matches = _matches(tournament)
    view = selectors.tournament_view(tournament)
    entries = sorted((e for e in view.entries if e.bracket_seed is not None), key=lambda e: e.bracket_seed)
    rank_of = {entry.pk: number for number, entry in enumerate(entries, start=1)}
    played = list(_played(tournament, matches))

    # How many TRF rounds each bracket round takes: its longest mini-match, at least one.
    columns: dict[int, int] = defaultdict(lambda: 1)
    for match in matches:
        columns[_round_number(match)] = max(columns[_round_number(match)], 1)
    for match, _rows, state in played:
        number = _round_number(match)
        columns[number] = max(columns[number], len(state.games))
    first_column, at = {}, 0
    for number in sorted(columns):
        first_column[number] = at
        at += columns[number]
    total = at

    cells: dict[int, list[trf.TrfRound | None]] = {e.pk: [None] * total for e in entries}
    points: dict[int, float] = defaultdict(float)
    for match, _rows, state in played:
        base = first_column[_round_number(match)]
        for line in state.games:
            for side in ("a", "b"):
                player, opponent = match.entry_on(side), match.entry_on("b" if side == "a" else "a")
                colour = "white" if side == line.white else "black"
                got = line.result.points(colour)
                points[player.pk] += got
                code = (TRF_FORFEIT_CODE if line.result.forfeit else TRF_CODE)[got]
                cells[player.pk][base + line.number - 1] = trf.TrfRound(rank_of[opponent.pk], colour[0], code)
    for match in matches:
        base = first_column[_round_number(match)]
        if match.is_bye and match.winner_id in cells:
            cells[match.winner_id][base] = trf.TrfRound(None, "-", "U")
            points[match.winner_id] += 1
        elif (
            match.decided_by in (Match.DecidedBy.WALKOVER, Match.DecidedBy.WITHDRAWAL)
            and match.winner_id in cells
            and cells[match.winner_id][base] is None  # no game was played before it
        ):
            loser = match.entry_b_id if match.winner_id == match.entry_a_id else match.entry_a_id
            if loser in rank_of:
                cells[match.winner_id][base] = trf.TrfRound(rank_of[loser], "-", "+")
                cells[loser][base] = trf.TrfRound(rank_of[match.winner_id], "-", "-")
            else:
                cells[match.winner_id][base] = trf.TrfRound(None, "-", "F")
            points[match.winner_id] += 1

    places: dict[int, int] = {}
    if view.standings is not None:
        for placing in view.standings.placings:
            for entry_id in placing.entries:
                if placing.first is not None:
                    places[entry_id] = placing.first
    players = [
        _player(entry, rank_of[entry.pk], points[entry.pk], places.get(entry.pk), cells[entry.pk]) for entry in entries
    ]
    first_round = tournament.rounds.filter(flight="main", number=1).first()
    control = first_round.settings.get("time_control", "") if first_round else ""
    report = trf.TrfTournament(
        name=tournament.name,
        city=tournament.venue,
        start=tournament.starts_on,
        end=_last_day(played),
        arbiter=", ".join(d.get_full_name() or d.username for d in tournament.directors.order_by("username")),
        time_control=control,
        kind="Knockout",
        players=tuple(players),
    )
    return trf.write_trf(report)


def _player(entry: Entry, rank: int, points: float, place: int | None, cells) -> trf.TrfPlayer:
    federation = entry.country.upper() if len(entry.country) == 3 and entry.country.isalpha() else ""
    while cells and cells[-1] is None:
        cells = cells[:-1]
    return trf.TrfPlayer(
        start_rank=rank,
        name=entry.name,
        rating=entry.rating if entry.rating and 0 < entry.rating < 10000 else None,
        federation=federation,
        points=points,
        rank=place,
        rounds=tuple(cells),
    )


def _last_day(played) -> date | None:
    days = [row.entered_at.date() for _m, rows, _s in played for row in rows if row.entered_at]
    return max(days) if days else None
