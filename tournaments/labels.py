"""How rounds and matches are called on pages and in messages (translated)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE


def rounds_in_flight(bracket_size: int | None, flight: str) -> int:
    if not bracket_size:
        return 0
    main_rounds = bracket_size.bit_length() - 1
    return {MAIN: main_rounds, THIRD_PLACE: 1, CONSOLATION: main_rounds - 1}.get(flight, 0)


def round_name(flight: str, number: int, bracket_size: int | None) -> str:
    """ "Final", "Semi-finals", "Round of 16", "Consolation: Quarter-finals", ..."""
    if flight == THIRD_PLACE:
        return _("Match for third place")
    remaining = rounds_in_flight(bracket_size, flight) - number
    if remaining == 0:
        name = _("Final")
    elif remaining == 1:
        name = _("Semi-finals")
    elif remaining == 2:
        name = _("Quarter-finals")
    elif remaining == 3:
        name = _("Round of 16")  # its own name in some languages (Czech: osmifinále)
    elif remaining == 4:
        name = _("Round of 32")
    else:
        name = _("Round of %(players)d") % {"players": 2 ** (remaining + 1)}
    if flight == CONSOLATION:
        return _("Consolation: %(round)s") % {"round": name}
    return name


def match_label(flight: str, round_number: int, position: int, bracket_size: int | None) -> str:
    """ "Quarter-finals, match 3"."""
    if flight == THIRD_PLACE:
        return round_name(flight, round_number, bracket_size)
    return _("%(round)s, match %(number)d") % {
        "round": round_name(flight, round_number, bracket_size),
        "number": position + 1,
    }


def match_labeller(bracket_size: int | None):
    """``match_label`` for many matches of one bracket: each round's name and the
    pattern are translated once (a 256-player bracket has 255 matches to name)."""
    pattern = _("%(round)s, match %(number)d")
    names: dict[tuple[str, int], str] = {}

    def label(flight: str, round_number: int, position: int) -> str:
        name = names.get((flight, round_number))
        if name is None:
            name = names[(flight, round_number)] = round_name(flight, round_number, bracket_size)
        return name if flight == THIRD_PLACE else pattern % {"round": name, "number": position + 1}

    return label
