"""A Scrabble game as a GCG file, the game-record format of Scrabble software
(``#character-encoding UTF-8`` first: plain GCG is ISO-8859-1, which lacks Č, Ř, Ě, Ů).

The sheet does not record the players' racks, so every move line has an empty rack;
exchanges give the number of tiles (``-3``), protests and penalties are ``#note``
lines, a protested-off move is a ``--`` line, a lost protest's points penalty a
``(challenge)`` line, and the end racks ``(RACK)`` lines, as in SPEC's example.
"""

from __future__ import annotations

import re
import unicodedata

from games.scrabble.game import GameState, ProtestKind, TurnKind, Verdict


def nickname(name: str, taken: set[str]) -> str:
    """A GCG nickname: ASCII letters and digits, no spaces, unique in the file."""
    ascii_name = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    base = re.sub(r"[^A-Za-z0-9]", "", ascii_name.split()[0] if ascii_name.split() else "") or "player"
    nick, n = base.lower(), 1
    while nick in taken:
        n += 1
        nick = f"{base.lower()}{n}"
    taken.add(nick)
    return nick


def game_record(state: GameState, names: tuple[str, ...], title: str = "") -> str:
    taken: set[str] = set()
    nicks = [nickname(name, taken) for name in names]
    lines = ["#character-encoding UTF-8"]
    for number, (nick, name) in enumerate(zip(nicks, names, strict=True), start=1):
        lines.append(f"#player{number} {nick} {name}")
    if title:
        lines.append(f"#title {title}")
    lines.append("#note The sheet records moves and scores, not racks: rack fields are empty.")
    totals = [0] * len(names)
    for line in state.lines:
        player = line.turn.player
        nick = nicks[player]
        kind = line.turn.kind
        if kind == TurnKind.PLACE:
            counted = line.move.total if line.corrected else line.turn.announced
            totals[player] += counted
            lines.append(
                f">{nick}:  {line.placement.position.gcg} {line.placement.notation} +{counted} {totals[player]}"
            )
            if line.corrected:
                lines.append(f"#note overscore protest upheld: {line.turn.announced} corrected to {line.move.total}")
            if line.void:
                totals[player] -= counted
                lines.append(f">{nick}:  -- -{counted} {totals[player]}")
        elif kind == TurnKind.EXCHANGE:
            lines.append(f">{nick}:  -{line.turn.exchanged} +0 {totals[player]}")
            if line.void:
                lines.append("#note exchange protest upheld: the turn is lost without exchanging")
        else:
            lines.append(f">{nick}:  - +0 {totals[player]}")
            if kind == TurnKind.TIMEOUT:
                lines.append("#note timeout pass")
            elif kind == TurnKind.FORCED_PASS:
                lines.append("#note forced pass: a penalty")
        for protest in line.protests:
            who = nicks[protest.protest.protester]
            what = protest.protest.kind.value + (
                f" {protest.protest.word}" if protest.protest.kind == ProtestKind.WORD else ""
            )
            lines.append(f"#note protest by {who} ({what}): {protest.verdict.value}")
            if protest.verdict == Verdict.REJECTED and protest.bonus:
                totals[player] += protest.bonus
                lines.append(f">{nick}:  (challenge) +{protest.bonus} {totals[player]}")
            for crossed, count in enumerate(protest.crosses):
                if count:
                    lines.append(f"#note penalty cross for {nicks[crossed]}")
    if state.end_racks is not None and state.adjustments is not None:
        for player, (rack, adjustment) in enumerate(zip(state.end_racks, state.adjustments, strict=True)):
            if not adjustment:
                continue
            totals[player] += adjustment
            if adjustment > 0:
                others = "".join(r for i, r in enumerate(state.end_racks) if i != player)
                lines.append(f">{nicks[player]}:  ({others}) +{adjustment} {totals[player]}")
            else:
                lines.append(f">{nicks[player]}: {rack} ({rack}) {adjustment} {totals[player]}")
    return "\n".join(lines) + "\n"
