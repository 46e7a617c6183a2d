"""Turns, protests and whole games for the Scrabble engine tests (game, GCG): short
builders, a chain of legal placements on the Czech board with their true scores worked
by hand, a small tile set that empties the bag in two moves, and a hypothesis strategy
playing random games."""

from __future__ import annotations

from collections.abc import Iterable

from hypothesis import strategies as st

from games.scrabble.game import (
    GameState,
    Protest,
    ProtestKind,
    Settings,
    Turn,
    TurnKind,
    Verdict,
    WordPenalty,
    add_turn,
    start,
)
from games.scrabble.tiles import TileSet

UPHELD, REJECTED, PENDING = Verdict.UPHELD, Verdict.REJECTED, Verdict.PENDING


def place(player: int, position: str, word: str, announced: int, *protests: Protest, as_played: bool = False) -> Turn:
    return Turn(
        player=player,
        kind=TurnKind.PLACE,
        position=position,
        word=word,
        announced=announced,
        as_played=as_played,
        protests=protests,
    )


def exchange(player: int, count: int, *protests: Protest, as_played: bool = False) -> Turn:
    return Turn(player=player, kind=TurnKind.EXCHANGE, exchanged=count, as_played=as_played, protests=protests)


def pass_(player: int) -> Turn:
    return Turn(player=player, kind=TurnKind.PASS)


def timeout(player: int) -> Turn:
    return Turn(player=player, kind=TurnKind.TIMEOUT)


def forced(player: int) -> Turn:
    return Turn(player=player, kind=TurnKind.FORCED_PASS)


def word_protest(protester: int, text: str, verdict: Verdict) -> Protest:
    return Protest(kind=ProtestKind.WORD, protester=protester, word=text, verdict=verdict)


def overscore(protester: int) -> Protest:
    return Protest(kind=ProtestKind.OVERSCORE, protester=protester)


def exchange_protest(protester: int) -> Protest:
    return Protest(kind=ProtestKind.EXCHANGE, protester=protester)


def placement_protest(protester: int) -> Protest:
    return Protest(kind=ProtestKind.PLACEMENT, protester=protester)


def play(turns: Iterable[Turn], settings: Settings | None = None, starter: int = 0) -> GameState:
    state = start(settings or Settings(), starter)
    for turn in turns:
        state = add_turn(state, turn)
    return state


# Legal placements on the Czech board, each after all the ones before it, with their
# true scores worked by hand from scrabble-czech-set.md (premiums count under new
# tiles only):
CHAIN: tuple[tuple[str, str, int, tuple[str, ...]], ...] = (
    # S on D8 (DL) 2 + L O V 3 + A on H8 (DW): (2 + 1 + 1 + 1 + 1) × 2
    ("8D", "SLOVA", 12, ("SLOVA",)),
    # O on G9 (DL) 2 + N 1 = ON 3; V 1 + O 2 = VO 3; A 1 + N 1 = AN 2
    ("9G", "ON", 8, ("ON", "VO", "AN")),
    # S E N, no premiums under D9, D10
    ("D8", ".EN", 3, ("SEN",)),
    # O K + N on F10 (TL) 3 + O = OKNO 6; K O N = KON 3
    ("F8", ".KNO", 9, ("OKNO", "KON")),
    # O D A, no premiums under G11, H11
    ("11F", ".DA", 3, ("ODA",)),
    # S E N O + S on D12 (DW): 5 × 2
    ("D8", "...OS", 10, ("SENOS",)),
    # K O S, no premiums under B12, C12
    ("12B", "KO.", 3, ("KOS",)),
    # K 1 + Ý 4
    ("B12", ".Ý", 5, ("KÝ",)),
    # D 1 + Ů on G12 4 + a blank on G13 (DL) 0
    ("G11", ".Ům", 5, ("DŮM",)),
)

# 20 tiles: after two racks of 7 the bag holds 6.
SMALL = TileSet(name="small", letters={"A": (1, 8), "B": (2, 6), "C": (3, 4)}, blanks=2)
# 21 tiles: after two racks of 7 the bag holds 7.
SMALL_PLUS_ONE = TileSet(name="small+1", letters={"A": (1, 9), "B": (2, 6), "C": (3, 4)}, blanks=2)


# --- Random games -----------------------------------------------------------------------
@st.composite
def random_games(draw: st.DrawFn, max_turns: int = 30) -> GameState:
    """A game of 2–3 players on the Czech board: placements from CHAIN (announced at
    random, protested at random), passes, timeouts, exchanges (protested at random) and
    the forced passes that fall due, under any word-penalty setting."""
    players = draw(st.integers(2, 3))
    settings = Settings(
        players=players,
        word_penalty=draw(st.sampled_from(list(WordPenalty))),
        penalty_points=draw(st.sampled_from([5, 10])),
        scoreless_turns_to_end=draw(st.sampled_from([4, 6])),
    )
    state = start(settings, draw(st.integers(0, players - 1)))
    for _ in range(max_turns):
        if state.ended:
            break
        player = state.on_turn
        opponents = [p for p in range(players) if p != player]
        if state.forced_passes_due[player]:
            state = add_turn(state, forced(player))
            continue
        placed = sum(1 for line in state.lines if line.tiles_stayed)
        kinds = ["pass", "timeout", "exchange"] + (["place"] * 4 if placed < len(CHAIN) else [])
        kind = draw(st.sampled_from(kinds))
        if kind == "place":
            position, text, _, words = CHAIN[placed]
            protests: list[Protest] = []
            if draw(st.booleans()):
                protests.append(overscore(draw(st.sampled_from(opponents))))
            for formed in draw(st.lists(st.sampled_from(words), unique=True, max_size=len(words))):
                verdict = draw(st.sampled_from([UPHELD, REJECTED]))
                protests.append(word_protest(draw(st.sampled_from(opponents)), formed, verdict))
                if verdict == UPHELD:
                    break  # the move is void: nothing left to protest
            else:
                if draw(st.booleans()):
                    protests.append(placement_protest(draw(st.sampled_from(opponents))))
            turn = place(player, position, text, draw(st.integers(0, 40)), *protests)
        elif kind == "exchange":
            protests = [exchange_protest(draw(st.sampled_from(opponents)))] if draw(st.booleans()) else []
            turn = exchange(player, draw(st.integers(1, 7)), *protests)
        elif kind == "timeout":
            turn = timeout(player)
        else:
            turn = pass_(player)
        state = add_turn(state, turn)
    return state
