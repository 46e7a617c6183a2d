"""The chouette pages' forms: a new session, and the table's forms read into the data
the services take (the opening rolls, the director's order, a game).

Only shapes are read here; every rule is checked by the services and the engine, whose
messages the pages show.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.backgammon.chouette import MAX_AUTOMATIC_DOUBLES

CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
MAX_ROLL_ROUNDS = 6


class SessionForm(forms.Form):
    name = forms.CharField(label=pgettext_lazy("chouette", "Name"), max_length=200)
    players = forms.CharField(
        label=_("Players"),
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_("One name per line; at least 3. The line is set at the table by the opening rolls."),
    )
    stake = forms.DecimalField(
        label=_("Stake per point"),
        min_value=Decimal("0.01"),
        max_value=Decimal("100000"),
        max_digits=8,
        decimal_places=2,
        initial=10,
        help_text=_("In the currency's main unit, e.g. 10 for 10 CZK a point."),
    )
    currency = forms.CharField(label=_("Currency"), max_length=3, initial="CZK")
    cubes = forms.ChoiceField(
        label=_("Cubes"),
        choices=[("many", _("A cube for every team member")), ("one", _("One cube for the whole team"))],
        initial="many",
    )
    jacoby = forms.BooleanField(label=_("Jacoby rule"), required=False)
    beavers = forms.BooleanField(label=_("Beavers"), required=False)
    automatic_doubles_limit = forms.IntegerField(
        label=_("Automatic doubles, at most"),
        min_value=0,
        max_value=MAX_AUTOMATIC_DOUBLES,
        initial=0,
        help_text=_("0: no automatic doubles."),
    )
    advice = forms.ChoiceField(
        label=_("The team may advise the captain"),
        choices=[("always", _("Always")), ("after_double", _("Only after a double")), ("never", _("Never"))],
        initial="always",
    )
    box_partner = forms.BooleanField(label=_("Box partner"), required=False, help_text=_("Six players or more."))
    public = forms.BooleanField(
        label=_("Public"),
        required=False,
        initial=True,
        help_text=_("Listed on the chouette page; a private session is seen only through its links."),
    )

    def service_fields(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "name": data["name"],
            "players": data["players"],
            "stake_cents": int(data["stake"] * 100),
            "currency": data["currency"],
            "settings": {
                name: data[name]
                for name in ("cubes", "jacoby", "beavers", "automatic_doubles_limit", "advice", "box_partner")
            },
            "public": data["public"],
        }


# --- The line ---------------------------------------------------------------------------
def rolls_from_form(post: Mapping[str, str], players: Sequence[str]) -> list[dict[str, str]]:
    """The rounds of dice entered (fields ``roll-<round>-<player id>``), up to the first
    empty round; a player left blank in a later round did not re-roll."""
    rounds = []
    for number in range(1, MAX_ROLL_ROUNDS + 1):
        dice = {player: value for player in players if (value := post.get(f"roll-{number}-{player}", "").strip())}
        if not dice:
            break
        rounds.append(dice)
    return rounds


def roll_rows(post: Mapping[str, str] | None, players: Mapping[str, str], failed: bool) -> tuple[list, range]:
    """The roll form: one row per player, one column per round entered, and after a
    refusal (a tie) one more column for the re-roll."""
    entered = len(rolls_from_form(post, list(players))) if post else 0
    count = min(MAX_ROLL_ROUNDS, max(1, entered + (1 if failed else 0)))
    rows = [
        {
            "name": name,
            "cells": [
                {"field": f"roll-{n}-{player}", "value": (post or {}).get(f"roll-{n}-{player}", "")}
                for n in range(1, count + 1)
            ],
        }
        for player, name in players.items()
    ]
    return rows, range(1, count + 1)


def order_from_form(post: Mapping[str, str], seats: int) -> list[str]:
    return [post.get(f"seat-{number}", "") for number in range(1, seats + 1)]


# --- A game -----------------------------------------------------------------------------
def _owner_before_double(value: str, dropped_by: str, base: int) -> str | None:
    """Who owned the cube when the dropped double was offered: nobody if it was the
    first double (from the centre), else the side that doubled, who must have owned it."""
    if value.isdecimal() and int(value) == 2 * base:
        return None
    return "box" if dropped_by == "member" else "member"


def _cube(value: str, owner: str, dropped_by: str, base: int) -> dict[str, Any] | None:
    """A member's cube as the services take it; None for an untouched cube."""
    value = value.strip()
    if value in ("", "1") and not owner and not dropped_by:
        return None
    if dropped_by:
        owner = _owner_before_double(value, dropped_by, base)
    return {"value": value, "owner": owner or None, "dropped_by": dropped_by or None}


def game_from_form(post: Mapping[str, str], team: Sequence[str], one_cube: bool) -> dict[str, Any]:
    """The quick game form as the data of ``chouette_services.record_game``.

    Many cubes: a row per team member (``cube-``, ``owner-``, ``dropped-<id>``). One
    cube: one row for the team (``cube-team``, ``owner-team``, ``dropped-team`` = "box"
    when the box dropped the team's double) and a ``dropped-<id>`` = "member" per member
    who dropped the box's last double (their value is the team cube's).
    """
    automatic = post.get("automatic_doubles", "").strip() or "0"
    base = 2 ** int(automatic) if automatic.isdecimal() and int(automatic) <= MAX_AUTOMATIC_DOUBLES else 1
    winner = post.get("winner", "")
    board = (
        {"winner": winner, "kind": post.get("kind") or "single", "resigned": post.get("resigned") == "on"}
        if winner
        else None
    )
    cubes = {}
    for member in team:
        if one_cube:
            dropped = "member" if post.get(f"dropped-{member}") == "member" else post.get("dropped-team", "")
            cube = _cube(post.get("cube-team", ""), post.get("owner-team", ""), dropped, base)
        else:
            cube = _cube(
                post.get(f"cube-{member}", ""), post.get(f"owner-{member}", ""), post.get(f"dropped-{member}", ""), base
            )
        if cube is not None:
            cubes[member] = cube
    return {
        "board": board,
        "cubes": cubes,
        "takeover": post.get("takeover") or None,
        "automatic_doubles": automatic,
        # The box and captain the page showed: a game sent from a page that missed the
        # last game is refused rather than scored on the wrong line.
        "box": post.get("box", ""),
        "captain": post.get("captain", ""),
    }


def game_form(post: Mapping[str, str] | None, line: Sequence[str], team: Sequence[str], names: Mapping[str, str]):
    """What the quick game form shows: the values posted (after a refusal) or the defaults."""
    post = post or {}

    def row(key: str, name: str) -> dict[str, Any]:
        return {
            "key": key,
            "name": name,
            "value": post.get(f"cube-{key}", "1"),
            "owner": post.get(f"owner-{key}", ""),
            "dropped": post.get(f"dropped-{key}", ""),
        }

    return {
        "box": line[0],
        "captain": line[1],
        "winner": post.get("winner", ""),
        "kind": post.get("kind", "single"),
        "resigned": post.get("resigned") == "on",
        "automatic_doubles": post.get("automatic_doubles", "0"),
        "takeover": post.get("takeover", ""),
        "team": row("team", ""),
        "members": [row(member, names[member]) for member in team],
        "takeover_choices": [(member, names[member]) for member in team[1:]],
        "cube_values": [str(value) for value in CUBE_VALUES],
        "kinds": [("single", _("Single")), ("gammon", _("Gammon")), ("backgammon", _("Backgammon"))],
        "member_drops": [("", _("played on")), ("member", _("dropped")), ("box", _("the box dropped"))],
        "team_drops": [("", _("played on")), ("box", _("the box dropped"))],
    }
