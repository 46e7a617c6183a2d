"""Chess games as PGN, the Portable Game Notation (Steven J. Edwards' standard of 1994).

A PGN file is a sequence of games. Each game is a *tag pair section* followed by a
*movetext section*::

    [Event "Club knockout"]
    [Site "Brno"]
    [Date "2026.11.23"]
    [Round "1.2"]
    [White "Novák, Jan"]
    [Black "Dvořák, Petr"]
    [Result "1-0"]
    [TimeControl "5400+30"]

    1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0

Tag pairs are ``[Name "value"]``; inside the value a backslash escapes a double quote
(``\\"``) or a backslash (``\\\\``). The movetext holds the moves in SAN (Standard
Algebraic Notation: ``e4``, ``Nbd7``, ``exd5``, ``e8=Q+``, ``O-O-O#``) with move
number indications (``12.`` before White's move, ``12...`` before Black's when Black
moves first), and ends with the game termination marker, the same as the ``Result``
tag: ``1-0``, ``0-1``, ``1/2-1/2`` or ``*`` (unknown, or the game goes on).

The writer produces *export format*: the Seven Tag Roster first in its order (Event,
Site, Date, Round, White, Black, Result), unknown values as ``?`` (``????.??.??`` for
the date), then the other tags in the order given; ``SetUp "1"`` just before a
``FEN`` tag; a blank line; the movetext wrapped into lines of at most 79 characters;
a blank line after every game.

The reader accepts *import format* as other programs write it: comments in braces
``{...}`` and from ``;`` to the end of the line, numeric annotation glyphs (``$14``),
``!``/``?`` suffixes, recursive variations ``( ... )`` (all skipped), lines starting
with the ``%`` escape, a UTF-8 byte order mark, and castling written with zeros
(``0-0``, read as ``O-O``). It checks only the *shape* of each move, not whether it is
legal in the position: the position module does that.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import date

from games.text import RuleError, gettext_noop

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
SEVEN_TAG_ROSTER = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
UNKNOWN = "?"
UNKNOWN_DATE = "????.??.??"
LINE_LENGTH = 79  # the standard's limit for export format movetext lines

# A move in SAN, as far as its shape goes: a piece move with optional disambiguation, a
# pawn move or capture with a promotion allowed on the last ranks, or castling; then check or mate.
SAN = re.compile(
    r"(?:[KQRBN][a-h]?[1-8]?x?[a-h][1-8]"
    r"|[a-h](?:x[a-h])?(?:[2-7]|[18](?:=[QRBN])?)"
    r"|O-O(?:-O)?)"
    r"[+#]?"
)
TAG_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_]*")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def is_san(move: str) -> bool:
    """Whether ``move`` has the shape of a SAN move (without ``!``/``?`` suffixes)."""
    return SAN.fullmatch(move) is not None


def pgn_date(day: date | None) -> str:
    """A date as a PGN ``Date`` tag value: ``2026.11.23``, or ``????.??.??`` if unknown."""
    if day is None:
        return UNKNOWN_DATE
    return f"{day.year:04d}.{day.month:02d}.{day.day:02d}"


def export_headers(headers: Mapping[str, str], result: str) -> dict[str, str]:
    """The tag pairs as the writer puts them out, in their order.

    The Seven Tag Roster first (missing ones unknown, ``Result`` the game's result),
    then the other tags in the order given, with ``SetUp "1"`` just before ``FEN``.
    Raises RuleError for a tag name PGN cannot carry, a value with a line break or
    other control character, or a ``Result`` tag that is not the game's result.
    """
    for name, value in headers.items():
        if not isinstance(name, str) or TAG_NAME.fullmatch(name) is None:
            raise RuleError(
                gettext_noop("%(name)r cannot be a PGN tag name: use letters, digits and underscores."), name=name
            )
        if not isinstance(value, str):
            raise RuleError(
                gettext_noop("The value of the tag %(name)s must be text, not %(value)r."), name=name, value=value
            )
        if CONTROL.search(value):
            raise RuleError(
                gettext_noop("The value of the tag %(name)s must be one line without control characters: %(value)r."),
                name=name,
                value=value,
            )
    if "Result" in headers and headers["Result"] != result:
        raise RuleError(
            gettext_noop("The Result tag says %(tag)s but the game's result is %(result)s."),
            tag=headers["Result"],
            result=result,
        )
    exported = {name: headers.get(name, UNKNOWN_DATE if name == "Date" else UNKNOWN) for name in SEVEN_TAG_ROSTER}
    exported["Result"] = result
    for name, value in headers.items():
        if name in exported or (name == "SetUp" and "FEN" in headers):
            continue
        if name == "FEN":
            exported["SetUp"] = "1"
        exported[name] = value
    return exported


@dataclass(frozen=True)
class PgnGame:
    """One game: its tag pairs, its moves in SAN (maybe none) and its result.

    The headers are kept in export form (see ``export_headers``): the Seven Tag Roster
    is always there, so that ``read_game(write_game(game)) == game`` for every game.
    """

    headers: Mapping[str, str] = field(default_factory=dict)
    moves: tuple[str, ...] = ()
    result: str = "*"

    def __post_init__(self) -> None:
        if self.result not in RESULTS:
            raise RuleError(
                gettext_noop("%(result)r is not a PGN result: use 1-0, 0-1, 1/2-1/2 or *."), result=self.result
            )
        moves = tuple(self.moves)
        for number, move in enumerate(moves, start=1):
            if not isinstance(move, str) or not is_san(move):
                raise RuleError(
                    gettext_noop("Move %(number)d, %(move)r, is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)."),
                    number=number,
                    move=move,
                )
        object.__setattr__(self, "moves", moves)
        object.__setattr__(self, "headers", export_headers(self.headers, self.result))


# --- writing ------------------------------------------------------------------------------


def escape(value: str) -> str:
    """A tag value inside its double quotes: backslashes and double quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def first_move(headers: Mapping[str, str]) -> tuple[int, bool]:
    """The number of the first move and whether White makes it, from the FEN tag if any.

    A FEN that cannot be read here (the position module checks FENs) counts as the
    usual start: move 1, White to move.
    """
    fields = headers.get("FEN", "").split()
    white = len(fields) < 2 or fields[1] != "b"
    number = int(fields[5]) if len(fields) >= 6 and fields[5].isdigit() and int(fields[5]) > 0 else 1
    return number, white


def movetext_tokens(game: PgnGame) -> list[str]:
    """The movetext's tokens: move number indications, moves, the result."""
    number, white = first_move(game.headers)
    tokens: list[str] = []
    for index, move in enumerate(game.moves):
        if white:
            tokens.append(f"{number}.")
        elif index == 0:
            tokens.append(f"{number}...")
        tokens.append(move)
        if not white:
            number += 1
        white = not white
    tokens.append(game.result)
    return tokens


def wrap(tokens: Iterable[str], width: int = LINE_LENGTH) -> list[str]:
    """Tokens joined by spaces into lines of at most ``width`` characters."""
    lines: list[str] = []
    line = ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > width:
            lines.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    lines.append(line)
    return lines


def write_game(game: PgnGame) -> str:
    """One game in PGN export format, ending with a blank line."""
    tags = [f'[{name} "{escape(value)}"]' for name, value in game.headers.items()]
    return "\n".join([*tags, "", *wrap(movetext_tokens(game)), "", ""])


def write_games(games: Iterable[PgnGame]) -> str:
    """Several games in one PGN file, a blank line between them."""
    return "".join(write_game(game) for game in games)


# --- reading ------------------------------------------------------------------------------

TOKEN = re.compile(
    r"""
      (?P<space>\s+)
    | (?P<escape>^%[^\n]*)
    | (?P<comment>\{[^}]*\})
    | (?P<open_comment>\{)
    | (?P<line_comment>;[^\n]*)
    | (?P<string>"(?:[^"\\\n]|\\[^\n])*")
    | (?P<open_string>")
    | (?P<nag>\$[0-9]+)
    | (?P<symbol>[A-Za-z0-9][A-Za-z0-9_+\#=:/\-]*)(?P<suffix>[!?]*)
    | (?P<annotation>[!?]+)
    | (?P<period>\.+)
    | (?P<punctuation>[\[\]()*])
    | (?P<other>\S)
    """,
    re.VERBOSE | re.MULTILINE,
)
SKIPPED = {"space", "escape", "comment", "line_comment", "nag", "annotation", "period"}
CASTLING_WITH_ZEROS = {"0-0": "O-O", "0-0-0": "O-O-O"}
UNESCAPE = re.compile(r"\\(.)")


@dataclass(frozen=True)
class Token:
    kind: str  # string, symbol, [, ], (, ), *
    text: str
    line: int


def tokens(text: str) -> list[Token]:
    """The tokens of a PGN text, comments and annotations left out."""
    found: list[Token] = []
    line = 1
    position = 0
    while position < len(text):
        match = TOKEN.match(text, position)
        assert match is not None  # the last alternative matches any character but a space
        kind = match.lastgroup if match.lastgroup != "suffix" else "symbol"
        piece = match.group()
        if kind == "open_comment":
            raise RuleError(
                gettext_noop("Line %(line)d: the comment that starts here is never closed (a } is missing)."), line=line
            )
        if kind == "open_string":
            raise RuleError(
                gettext_noop("Line %(line)d: the text in double quotes that starts here does not end on this line."),
                line=line,
            )
        if kind == "other":
            raise RuleError(gettext_noop("Line %(line)d: %(token)r is not a PGN token."), line=line, token=piece)
        if kind == "string":
            found.append(Token("string", UNESCAPE.sub(r"\1", piece[1:-1]), line))
        elif kind == "symbol":
            found.append(Token("symbol", match.group("symbol"), line))
        elif kind == "punctuation":
            found.append(Token(piece, piece, line))
        else:
            assert kind in SKIPPED
        line += piece.count("\n")
        position = match.end()
    return found


class Reader:
    """Reads games from the tokens of a PGN text, one token at a time."""

    def __init__(self, text: str) -> None:
        self.tokens = tokens(text.removeprefix("\ufeff"))
        self.position = 0

    def next(self) -> Token | None:
        if self.position >= len(self.tokens):
            return None
        token = self.tokens[self.position]
        self.position += 1
        return token

    def games(self) -> list[PgnGame]:
        games: list[PgnGame] = []
        while self.position < len(self.tokens):
            games.append(self.game())
        return games

    def game(self) -> PgnGame:
        start = self.tokens[self.position].line
        headers: dict[str, str] = {}
        tag_lines: dict[str, int] = {}
        moves: list[str] = []
        in_movetext = False
        while True:
            token = self.next()
            if token is None or (token.kind == "[" and in_movetext):
                raise RuleError(
                    gettext_noop(
                        "Line %(line)d: the game that starts here does not end with a result (1-0, 0-1, 1/2-1/2 or *)."
                    ),
                    line=start,
                )
            if token.kind == "[":
                name, value = self.tag_pair(token)
                if name in headers:
                    raise RuleError(
                        gettext_noop(
                            "Line %(line)d: the tag %(name)s is given a second time in this game "
                            "(or the game before lacks its result)."
                        ),
                        line=token.line,
                        name=name,
                    )
                headers[name] = value
                tag_lines[name] = token.line
                continue
            in_movetext = True
            if token.kind == "(":
                self.skip_variation(token)
            elif token.kind == ")":
                raise RuleError(
                    gettext_noop("Line %(line)d: this ) closes a variation that was never opened."), line=token.line
                )
            elif token.kind == "*" or token.text in RESULTS:
                return self.finish(headers, moves, token, tag_lines.get("Result", 0))
            elif token.kind == "string":
                raise RuleError(
                    gettext_noop("Line %(line)d: the text in double quotes %(text)r stands outside a tag pair."),
                    line=token.line,
                    text=token.text,
                )
            elif token.kind == "symbol" and token.text.isdigit():
                continue  # a move number indication
            elif token.kind == "symbol" and is_san(CASTLING_WITH_ZEROS.get(token.text, token.text)):
                moves.append(CASTLING_WITH_ZEROS.get(token.text, token.text))
            else:
                raise RuleError(
                    gettext_noop(
                        "Line %(line)d: %(token)r is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O) "
                        "nor a move number or result."
                    ),
                    line=token.line,
                    token=token.text,
                )

    def tag_pair(self, opening: Token) -> tuple[str, str]:
        name = self.next()
        if name is None or name.kind != "symbol" or TAG_NAME.fullmatch(name.text) is None:
            raise RuleError(gettext_noop("Line %(line)d: a tag pair needs a name after its [."), line=opening.line)
        value = self.next()
        if value is None or value.kind != "string":
            raise RuleError(
                gettext_noop('Line %(line)d: the tag %(name)s needs a value in double quotes, such as [%(name)s "?"].'),
                line=opening.line,
                name=name.text,
            )
        closing = self.next()
        if closing is None or closing.kind != "]":
            raise RuleError(
                gettext_noop("Line %(line)d: the tag pair that starts here is never closed (a ] is missing)."),
                line=opening.line,
            )
        if CONTROL.search(value.text):
            raise RuleError(
                gettext_noop("Line %(line)d: the value of the tag %(name)s holds a tab or another control character."),
                line=opening.line,
                name=name.text,
            )
        return name.text, value.text

    def skip_variation(self, opening: Token) -> None:
        depth = 1
        while depth:
            token = self.next()
            if token is None or token.kind == "[":
                raise RuleError(
                    gettext_noop("Line %(line)d: the variation that starts here is never closed (a ) is missing)."),
                    line=opening.line,
                )
            if token.kind == "(":
                depth += 1
            elif token.kind == ")":
                depth -= 1

    def finish(self, headers: dict[str, str], moves: list[str], marker: Token, result_line: int) -> PgnGame:
        result = marker.text
        if "Result" in headers and headers["Result"] != result:
            raise RuleError(
                gettext_noop(
                    "Line %(line)d: the game ends with %(marker)s but its Result tag (line %(tag_line)d) says %(tag)s."
                ),
                line=marker.line,
                marker=result,
                tag_line=result_line,
                tag=headers["Result"],
            )
        return PgnGame(headers=headers, moves=tuple(moves), result=result)


def read_games(text: str) -> list[PgnGame]:
    """All the games of a PGN text (none if it holds only whitespace and comments)."""
    return Reader(text).games()


def read_game(text: str) -> PgnGame:
    """The one game of a PGN text; RuleError if it holds none or several."""
    games = read_games(text)
    if len(games) != 1:
        raise RuleError(gettext_noop("The PGN text holds %(count)d games; one was expected."), count=len(games))
    return games[0]
