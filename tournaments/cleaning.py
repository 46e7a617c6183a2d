"""Checking and normalising what directors type: tournament settings and players.

The services call these before they write; each refusal is a ``DomainError`` naming the
field at fault, so that a page shows it on the form and the API as a 400.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify
from django.utils.translation import gettext as _

from games import registry
from games.registry import RuleError
from games.text import gettext_noop
from tournaments.errors import DomainError, readable
from tournaments.models import Entry, Tournament

MAX_RATING = 9999
MAX_SEED = 9999
MAX_CONFIRMATION_TIMEOUT = 7 * 24 * 3600


def clean_tournament_fields(fields: Mapping[str, Any], game_type: str) -> dict[str, Any]:
    clean: dict[str, Any] = {}
    try:
        game = registry.get(str(game_type))
    except RuleError as error:
        raise DomainError(readable(error), field="game_type") from None
    for name, value in fields.items():
        if name == "name":
            value = str(value or "").strip()
            if len(value) > 200:
                raise DomainError(_("Keep the name under 200 characters."), field="name")
        elif name == "game_type":
            value = game.key
        elif name == "venue":
            value = str(value or "").strip()[:200]
        elif name == "starts_on":
            value = value or None
        elif name == "seeding_method":
            if value not in Tournament.Seeding.values:
                raise DomainError(
                    _("Seeding must be one of: %(choices)s.") % {"choices": ", ".join(Tournament.Seeding.values)},
                    field=name,
                )
        elif name == "seeded_count":
            value = optional_int(value, name, minimum=0, maximum=MAX_SEED)
        elif name in ("third_place_match", "consolation"):
            value = bool(value)
        elif name == "confirmation_timeout_seconds":
            value = optional_int(value, name, minimum=0, maximum=MAX_CONFIRMATION_TIMEOUT)
            if value is None:
                raise DomainError(_("Give a confirmation timeout (0 switches it off)."), field=name)
        elif name == "round_plan":
            value = clean_round_plan(game, value)
        elif name == "settings":
            try:
                value = game.clean_settings(value)
            except RuleError as error:
                raise DomainError(readable(error), field=name) from None
        else:
            raise DomainError(_("Unknown setting %(name)s.") % {"name": name}, field=name)
        clean[name] = value
    if "game_type" in clean and "settings" not in clean:
        clean["settings"] = game.clean_settings({})  # a new game starts from its defaults
    return clean


def clean_round_plan(game: registry.GameType, value: Any) -> list[dict[str, Any]]:
    try:
        if value in (None, ""):
            return []
        if isinstance(value, str):
            return game.parse_round_plan(value)
        if isinstance(value, list):
            plan = []
            for number, item in enumerate(value, start=1):
                settings = item if isinstance(item, dict) else {game.plan_field: item}
                try:
                    cleaned = game.clean_round_settings(settings)
                except RuleError as error:
                    raise RuleError(
                        gettext_noop("Round %(number)d: %(problem)s"), number=number, problem=error
                    ) from None
                # Keep what the director planned; the rest comes from the game settings.
                plan.append({key: cleaned[key] for key in settings})
            return plan
    except RuleError as error:
        raise DomainError(readable(error), field="round_plan") from None
    raise DomainError(_('The round plan must be a list such as "3, 3, 5".'), field="round_plan")


@dataclass
class TakenNames:
    """Names (case-folded) and seeds already used in a tournament."""

    names: dict[str, str]
    seeds: dict[int, str]

    @classmethod
    def of(cls, tournament: Tournament, exclude: Entry | None = None) -> TakenNames:
        rows = tournament.entries.exclude(pk=exclude.pk if exclude else None).values_list("name", "seed")
        return cls(
            names={fold_name(name): name for name, _ in rows},
            seeds={seed: name for name, seed in rows if seed is not None},
        )


def fold_name(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def clean_entry_fields(
    tournament: Tournament, fields: Mapping[str, Any], entry: Entry | None = None, taken: TakenNames | None = None
) -> dict[str, Any]:
    taken = taken or TakenNames.of(tournament, exclude=entry)
    clean: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "name":
            value = unicodedata.normalize("NFC", " ".join(str(value or "").split()))
            if not value:
                raise DomainError(_("The player's name is empty."), field="name")
            if len(value) > 120:
                raise DomainError(_("Keep the name under 120 characters."), field="name")
            if fold_name(value) in taken.names:
                raise DomainError(
                    _("%(name)s is already registered; add a club or a middle initial to tell them apart.")
                    % {"name": taken.names[fold_name(value)]},
                    field="name",
                )
        elif name == "rating":
            value = optional_int(value, "rating", minimum=0, maximum=MAX_RATING)
        elif name == "club":
            value = str(value or "").strip()
            if len(value) > 120:
                raise DomainError(_("Keep the club under 120 characters."), field="club")
        elif name == "country":
            value = str(value or "").strip().upper()
            if value and not (2 <= len(value) <= 3 and value.isascii() and value.isalpha()):
                raise DomainError(
                    _("Country %(value)s must be a 2- or 3-letter code such as CZ or CZE.") % {"value": value},
                    field="country",
                )
        elif name == "seed":
            value = optional_int(value, "seed", minimum=1, maximum=MAX_SEED)
            if value is not None and value in taken.seeds:
                raise DomainError(
                    _("Seed %(seed)d is already given to %(name)s.") % {"seed": value, "name": taken.seeds[value]},
                    field="seed",
                )
        else:
            raise DomainError(_("Unknown player field %(name)s.") % {"name": name}, field=name)
        clean[name] = value
    return clean


def optional_int(value: Any, field: str, minimum: int, maximum: int) -> int | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise DomainError(_("%(field)s must be a whole number.") % {"field": field}, field=field)
    try:
        number = int(str(value).strip()) if not isinstance(value, int) else value
    except ValueError:
        raise DomainError(
            _("%(field)s must be a whole number, not %(value)s.") % {"field": field, "value": value}, field=field
        ) from None
    if not minimum <= number <= maximum:
        raise DomainError(
            _("%(field)s must be between %(min)d and %(max)d, not %(value)d.")
            % {"field": field, "min": minimum, "max": maximum, "value": number},
            field=field,
        )
    return number


def unique_slug(name: str) -> str:
    base = slugify(name)[:60].strip("-") or "tournament"
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def as_int(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None
