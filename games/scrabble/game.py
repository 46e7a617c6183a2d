"""One Scrabble game derived from its facts (SPEC §4): the turns as entered, the
protests raised against them and their verdicts, and the racks left at the end.

Pure functions. From the facts the engine derives the board, every turn's true score
and what counts, the penalty crosses and the forced passes they cause, the bag and
rack sizes, the run of scoreless turns, the end of the game, the rack adjustment and
the winner. A turn or protest that breaks a rule raises ``GameError`` naming it.

Players are numbered from 0 in seating order; ``starter`` moves first and turns go
round in that order. Tournament games have two players (slot a = 0, slot b = 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum

from games.scrabble.placement import Placement, apply, parse_placement, play_rule_breaks
from games.scrabble.scoring import MoveScore, score_placement
from games.scrabble.tiles import CZECH, TileSet, parse_rack, rack_value
from games.text import RuleError, Text, gettext_noop

MAX_ANNOUNCED = 2000
EXCHANGE_MINIMUM_BAG = 7


class GameError(RuleError):
    """A turn, protest or end rack the rules do not allow; the message names the rule."""


class TurnKind(StrEnum):
    PLACE = "place"
    EXCHANGE = "exchange"
    PASS = "pass"
    TIMEOUT = "timeout"  # the move clock ran out: recorded as a pass
    FORCED_PASS = "forced_pass"  # the turn lost to a penalty (3rd+ cross, lost-turn rule)


class ProtestKind(StrEnum):
    WORD = "word"
    OVERSCORE = "overscore"
    EXCHANGE = "exchange"
    PLACEMENT = "placement"


class Verdict(StrEnum):
    PENDING = "pending"
    UPHELD = "upheld"
    REJECTED = "rejected"


class WordPenalty(StrEnum):
    """What a lost word protest costs (SPEC §4.3)."""

    CROSS = "cross"  # Czech rules: a penalty cross for the protester
    POINTS_PER_WORD = "points_per_word"  # points to the protested player, per word
    POINTS_PER_TURN = "points_per_turn"  # points to the protested player, once per turn
    LOSE_TURN = "lose_turn"  # the protester loses their next turn
    NONE = "none"


class EndRule(StrEnum):
    INTERNATIONAL = "international"  # each subtracts their rack; who went out adds the others'
    NORTH_AMERICAN = "north_american"  # who went out adds twice the others'; nobody subtracts


@dataclass(frozen=True)
class Settings:
    players: int = 2
    tile_set: TileSet = CZECH
    scoreless_turns_to_end: int = 4
    word_penalty: WordPenalty = WordPenalty.CROSS
    penalty_points: int = 5
    end_rule: EndRule = EndRule.INTERNATIONAL
    free_crosses: int = 2  # the 1st and 2nd cross cost nothing; each further one a turn


@dataclass(frozen=True)
class Protest:
    kind: ProtestKind
    protester: int
    word: str = ""  # the word protested (word protests)
    verdict: Verdict = Verdict.PENDING  # word protests: the judge's verdict; others are decided here


@dataclass(frozen=True)
class Turn:
    player: int
    kind: TurnKind
    position: str = ""
    word: str = ""
    announced: int = 0
    exchanged: int = 0  # how many tiles were exchanged
    # Recorded as it happened at the table although it breaks a rule the opponent may
    # protest (an exchange with fewer than 7 tiles in the bag, a first word off the
    # centre, a word not connected); it stands unless protested.
    as_played: bool = False
    protests: tuple[Protest, ...] = ()


@dataclass(frozen=True)
class ProtestLine:
    protest: Protest
    verdict: Verdict  # as decided (by the judge for words, here for the others)
    crosses: tuple[int, ...]  # crosses this protest gave, per player
    bonus: int = 0  # points it gave the protested player (points penalty)


@dataclass(frozen=True)
class TurnLine:
    number: int
    turn: Turn
    placement: Placement | None
    move: MoveScore | None  # the true score of a placement
    score: int  # what the turn counts
    void: bool  # the move was taken back (upheld protest)
    corrected: bool  # an overscore protest corrected the score
    protests: tuple[ProtestLine, ...]
    bonus: int  # points the turn's player got from lost word protests against them
    bag_before: int
    bag_after: int
    racks_after: tuple[int, ...]
    totals_after: tuple[int, ...]
    tiles_stayed: bool  # a tile stayed on the board (the turn was not scoreless)
    rule_breaks: tuple[str, ...] = ()  # what an as-played turn breaks

    @property
    def true_score(self) -> int | None:
        return self.move.total if self.move else None


@dataclass(frozen=True)
class GameState:
    settings: Settings
    starter: int
    lines: tuple[TurnLine, ...] = ()
    board: dict = field(default_factory=dict)
    scores: tuple[int, ...] = ()
    crosses: tuple[int, ...] = ()
    forced_passes_due: tuple[int, ...] = ()
    bag: int = 0
    racks: tuple[int, ...] = ()
    scoreless_run: int = 0
    ended: bool = False
    went_out: int | None = None  # the player who went out, if one did
    end_racks: tuple[str, ...] | None = None
    adjustments: tuple[int, ...] | None = None

    @property
    def on_turn(self) -> int:
        if not self.lines:
            return self.starter
        return (self.lines[-1].turn.player + 1) % self.settings.players

    @property
    def last(self) -> TurnLine | None:
        return self.lines[-1] if self.lines else None

    @property
    def waiting_for_verdict(self) -> bool:
        return bool(self.lines) and any(p.verdict == Verdict.PENDING for p in self.lines[-1].protests)

    @property
    def final_scores(self) -> tuple[int, ...] | None:
        if self.adjustments is None:
            return None
        return tuple(s + a for s, a in zip(self.scores, self.adjustments, strict=True))

    @property
    def winner(self) -> int | None:
        final = self.final_scores
        if final is None:
            return None
        best = max(final)
        leaders = [i for i, score in enumerate(final) if score == best]
        return leaders[0] if len(leaders) == 1 else None

    @property
    def draw(self) -> bool:
        return self.final_scores is not None and self.winner is None

    @property
    def finished(self) -> bool:
        """Ended, and the racks left are entered: the result is known."""
        return self.adjustments is not None


# --- Building the state --------------------------------------------------------------
def start(settings: Settings = Settings(), starter: int = 0) -> GameState:
    n = settings.players
    if not 2 <= n <= 4:
        raise GameError(gettext_noop("A game has 2 to 4 players, not %(count)d."), count=n)
    if not 0 <= starter < n:
        raise GameError(gettext_noop("The starting player is one of the %(count)d players."), count=n)
    size = settings.tile_set.rack_size
    return GameState(
        settings=settings,
        starter=starter,
        scores=(0,) * n,
        crosses=(0,) * n,
        forced_passes_due=(0,) * n,
        bag=settings.tile_set.total_tiles - size * n,
        racks=(size,) * n,
    )


def replay(
    settings: Settings, starter: int, turns: Sequence[Turn], end_racks: Sequence[str] | None = None
) -> GameState:
    """The game after these turns (each checked in turn) and, if given, the end racks."""
    state = start(settings, starter)
    for turn in turns:
        state = add_turn(state, turn)
    if end_racks is not None:
        state = finish(state, end_racks)
    return state


def add_turn(state: GameState, turn: Turn) -> GameState:
    """The game after one more turn (with the protests raised against it)."""
    number = len(state.lines) + 1
    try:
        return _add_turn(state, turn, number)
    except RuleError as error:
        raise GameError(gettext_noop("Turn %(number)d: %(problem)s"), number=number, problem=error) from None


def _add_turn(state: GameState, turn: Turn, number: int) -> GameState:
    settings = state.settings
    if state.ended:
        raise GameError(gettext_noop("The game is over: no turn can be added."))
    if state.waiting_for_verdict:
        raise GameError(gettext_noop("A word protest on the last turn waits for its verdict."))
    if turn.player != state.on_turn:
        raise GameError(
            gettext_noop("Player %(player)d is not on turn; player %(on_turn)d is."),
            player=turn.player + 1,
            on_turn=state.on_turn + 1,
        )
    due = state.forced_passes_due[turn.player]
    if due and turn.kind != TurnKind.FORCED_PASS:
        raise GameError(gettext_noop("This player lost this turn to a penalty: it is a forced pass."))
    if not due and turn.kind == TurnKind.FORCED_PASS:
        raise GameError(gettext_noop("A forced pass is only recorded for a turn lost to a penalty."))

    placement: Placement | None = None
    move: MoveScore | None = None
    rule_breaks: tuple[str, ...] = ()
    if turn.kind == TurnKind.PLACE:
        placement, move, rule_breaks = _placement(state, turn)
    elif turn.kind == TurnKind.EXCHANGE:
        rule_breaks = _check_exchange(state, turn)
    elif turn.position or turn.word or turn.announced or turn.exchanged:
        raise GameError(gettext_noop("A pass has no position, word, score or exchanged tiles."))

    # Protests, in the order they were raised.
    crosses = list(state.crosses)
    forced = list(state.forced_passes_due)
    void = corrected = False
    score = turn.announced if move is not None else 0
    bonus = 0
    lines: list[ProtestLine] = []
    protested_words: set[str] = set()
    for protest in turn.protests:
        _check_protest(state, turn, protest, move, void, protested_words)
        verdict = _verdict(state, turn, protest, move, rule_breaks)
        given = [0] * settings.players
        gift = 0
        if verdict == Verdict.UPHELD:
            if protest.kind in (ProtestKind.WORD, ProtestKind.PLACEMENT, ProtestKind.EXCHANGE):
                void = True
            elif protest.kind == ProtestKind.OVERSCORE:
                corrected = True
                score = move.total if move else 0
                given[turn.player] += 1
        elif verdict == Verdict.REJECTED:
            if protest.kind == ProtestKind.WORD and settings.word_penalty != WordPenalty.CROSS:
                if (
                    settings.word_penalty == WordPenalty.POINTS_PER_WORD
                    or settings.word_penalty == WordPenalty.POINTS_PER_TURN
                    and not any(
                        line.protest.kind == ProtestKind.WORD and line.verdict == Verdict.REJECTED for line in lines
                    )
                ):
                    gift = settings.penalty_points
                elif settings.word_penalty == WordPenalty.LOSE_TURN:
                    forced[protest.protester] += 1
            else:
                given[protest.protester] += 1
        for player, count in enumerate(given):
            for _ in range(count):
                crosses[player] += 1
                if crosses[player] > settings.free_crosses:
                    forced[player] += 1
        bonus += gift
        lines.append(ProtestLine(protest=protest, verdict=verdict, crosses=tuple(given), bonus=gift))

    if due:
        forced[turn.player] -= 1
    if void:
        score = 0

    # Tiles, bag and racks.
    board = state.board
    racks = list(state.racks)
    bag = state.bag
    tiles_stayed = False
    if placement is not None and not void:
        board = apply(state.board, placement)
        placed = len(placement.new_tiles)
        drawn = min(placed, bag)
        racks[turn.player] += drawn - placed
        bag -= drawn
        tiles_stayed = True
    scores = list(state.scores)
    scores[turn.player] += score + bonus
    scoreless_run = 0 if tiles_stayed else state.scoreless_run + 1

    went_out = turn.player if tiles_stayed and racks[turn.player] == 0 and bag == 0 else None
    ended = went_out is not None or scoreless_run >= settings.scoreless_turns_to_end
    line = TurnLine(
        number=number,
        turn=turn,
        placement=placement,
        move=move,
        score=score,
        void=void,
        corrected=corrected,
        protests=tuple(lines),
        bonus=bonus,
        bag_before=state.bag,
        bag_after=bag,
        racks_after=tuple(racks),
        totals_after=tuple(scores),
        tiles_stayed=tiles_stayed,
        rule_breaks=rule_breaks,
    )
    return replace(
        state,
        lines=(*state.lines, line),
        board=board,
        scores=tuple(scores),
        crosses=tuple(crosses),
        forced_passes_due=tuple(forced),
        bag=bag,
        racks=tuple(racks),
        scoreless_run=scoreless_run,
        ended=ended and not any(p.verdict == Verdict.PENDING for p in lines),
        went_out=went_out,
    )


def _placement(state: GameState, turn: Turn) -> tuple[Placement, MoveScore, tuple[str, ...]]:
    if turn.exchanged:
        raise GameError(gettext_noop("A placement exchanges no tiles."))
    if (
        isinstance(turn.announced, bool)
        or not isinstance(turn.announced, int)
        or not (0 <= turn.announced <= MAX_ANNOUNCED)
    ):
        raise GameError(
            gettext_noop("The announced score is a whole number from 0 to %(max)d, not %(value).40r."),
            max=MAX_ANNOUNCED,
            value=turn.announced,
        )
    tile_set = state.settings.tile_set
    try:
        placement = parse_placement(turn.position, turn.word, state.board, tile_set)
        rule_breaks: tuple[str, ...] = ()
    except RuleError:
        # A first word off the centre or a word not connected may have been played at
        # the table: recorded "as played", it stands unless the opponent protests.
        breaks = _play_rule_breaks(state, turn)
        if not (turn.as_played and breaks):
            raise
        placement = parse_placement(turn.position, turn.word, state.board, tile_set, check_play_rules=False)
        rule_breaks = breaks
    if len(placement.new_tiles) > state.racks[turn.player]:
        raise GameError(
            gettext_noop("The player has %(rack)d tiles on the rack and cannot place %(count)d."),
            rack=state.racks[turn.player],
            count=len(placement.new_tiles),
        )
    return placement, score_placement(placement, state.board, tile_set), rule_breaks


def _play_rule_breaks(state: GameState, turn: Turn) -> tuple[str, ...]:
    """The play rules (centre, connection) a placement breaks, if those are all it breaks."""
    try:
        placement = parse_placement(
            turn.position, turn.word, state.board, state.settings.tile_set, check_play_rules=False
        )
    except RuleError:
        return ()
    return play_rule_breaks(placement, state.board)


def _check_exchange(state: GameState, turn: Turn) -> tuple[str, ...]:
    if turn.position or turn.word or turn.announced:
        raise GameError(gettext_noop("An exchange has no position, word or score."))
    rack = state.racks[turn.player]
    if isinstance(turn.exchanged, bool) or not isinstance(turn.exchanged, int) or not 1 <= turn.exchanged <= rack:
        raise GameError(
            gettext_noop("An exchange swaps 1 to %(rack)d tiles (the tiles on the rack), not %(value).40r."),
            rack=rack,
            value=turn.exchanged,
        )
    if state.bag < EXCHANGE_MINIMUM_BAG:
        if not turn.as_played:
            raise GameError(
                gettext_noop(
                    "The bag holds only %(bag)d tiles: an exchange needs at least 7. If it was played at the "
                    "table anyway, record it as played — the opponent may protest it."
                ),
                bag=state.bag,
            )
        return (gettext_noop("exchange with fewer than 7 tiles in the bag"),)
    return ()


def _check_protest(
    state: GameState, turn: Turn, protest: Protest, move: MoveScore | None, void: bool, words: set[str]
) -> None:
    if not 0 <= protest.protester < state.settings.players or protest.protester == turn.player:
        raise GameError(gettext_noop("Only an opponent of the player who moved may protest."))
    if void:
        raise GameError(gettext_noop("The move is already void: there is nothing left to protest."))
    if protest.kind in (ProtestKind.WORD, ProtestKind.OVERSCORE, ProtestKind.PLACEMENT) and move is None:
        raise GameError(gettext_noop("Only a placement can be protested for a word, its score or its placement."))
    if protest.kind == ProtestKind.EXCHANGE and turn.kind != TurnKind.EXCHANGE:
        raise GameError(gettext_noop("Only an exchange can be protested as an exchange."))
    if protest.kind == ProtestKind.WORD:
        formed = {word.word.upper() for word in move.words} if move else set()
        word = protest.word.strip().upper()
        if word not in formed:
            raise GameError(
                gettext_noop("%(word)s is not a word this move formed (it formed %(words)s)."),
                word=protest.word.strip() or "''",
                words=", ".join(sorted(formed)),
            )
        if word in words:
            raise GameError(gettext_noop("%(word)s has already been protested."), word=word)
        words.add(word)
    elif protest.word:
        raise GameError(gettext_noop("Only a word protest names a word."))
    if protest.kind != ProtestKind.WORD and protest.verdict != Verdict.PENDING:
        raise GameError(gettext_noop("The system decides this protest by itself; it takes no verdict."))


def _verdict(
    state: GameState, turn: Turn, protest: Protest, move: MoveScore | None, rule_breaks: tuple[str, ...]
) -> Verdict:
    if protest.kind == ProtestKind.WORD:
        return protest.verdict
    if protest.kind == ProtestKind.OVERSCORE:
        return Verdict.UPHELD if move is not None and turn.announced > move.total else Verdict.REJECTED
    if protest.kind == ProtestKind.EXCHANGE:
        return Verdict.UPHELD if state.bag < EXCHANGE_MINIMUM_BAG else Verdict.REJECTED
    return Verdict.UPHELD if rule_breaks else Verdict.REJECTED


# --- The end -------------------------------------------------------------------------
def finish(state: GameState, end_racks: Sequence[str]) -> GameState:
    """The racks left at the end (letters, "?" for a blank) and the adjustment."""
    settings = state.settings
    if not state.ended:
        raise GameError(gettext_noop("The game is not over yet: racks are entered at the end."))
    if len(end_racks) != settings.players:
        raise GameError(gettext_noop("Enter the rack left of each of the %(count)d players."), count=settings.players)
    racks = []
    for player, text in enumerate(end_racks):
        try:
            rack = parse_rack(text, settings.tile_set)
        except RuleError as error:
            raise GameError(
                gettext_noop("Player %(player)d's rack: %(problem)s"), player=player + 1, problem=error
            ) from None
        if len(rack) != state.racks[player]:
            raise GameError(
                gettext_noop("Player %(player)d should have %(known)d tiles left on the rack, not %(count)d."),
                player=player + 1,
                known=state.racks[player],
                count=len(rack),
            )
        racks.append(rack)
    _check_letters_available(state, racks)
    values = [rack_value(rack, settings.tile_set) for rack in racks]
    adjustments = [0] * settings.players
    out = state.went_out
    if settings.end_rule == EndRule.NORTH_AMERICAN and out is not None:
        adjustments[out] = 2 * sum(v for i, v in enumerate(values) if i != out)
    else:
        for player, value in enumerate(values):
            adjustments[player] -= value
        if out is not None:
            adjustments[out] += sum(v for i, v in enumerate(values) if i != out)
    return replace(state, end_racks=tuple(racks), adjustments=tuple(adjustments))


def _check_letters_available(state: GameState, racks: list[str]) -> None:
    """Racks cannot hold letters the set has no more of (all on the board already)."""
    tile_set = state.settings.tile_set
    used: dict[str, int] = {}
    for tile in state.board.values():
        key = "?" if tile.blank else tile.letter
        used[key] = used.get(key, 0) + 1
    for rack in racks:
        for letter in rack:
            used[letter] = used.get(letter, 0) + 1
    for letter, count in used.items():
        limit = tile_set.blanks if letter == "?" else tile_set.count(letter)
        if count > limit:
            raise GameError(
                gettext_noop("The set has %(limit)d × %(letter)s, but the board and the racks hold %(count)d."),
                limit=limit,
                letter=letter,
                count=count,
            )


def describe_turn(line: TurnLine) -> Text:
    """A short description of a turn for the sheet (translatable)."""
    kind = line.turn.kind
    if kind == TurnKind.PLACE:
        return Text(
            gettext_noop("%(position)s %(word)s"), position=line.placement.position.gcg, word=line.placement.notation
        )
    if kind == TurnKind.EXCHANGE:
        return Text(gettext_noop("exchange of %(count)d"), count=line.turn.exchanged)
    if kind == TurnKind.TIMEOUT:
        return Text(gettext_noop("timeout pass"))
    if kind == TurnKind.FORCED_PASS:
        return Text(gettext_noop("forced pass (penalty)"))
    return Text(gettext_noop("pass"))
