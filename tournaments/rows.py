"""Reading the many rows of a bracket page fast: the SQL written once per shape from the
model's fields, run on a plain cursor, each value converted as the ORM converts it (on
SQLite datetimes and booleans, JSON everywhere; on PostgreSQL little else) — about a
quarter of what a queryset's ``values_list`` costs for the 255 matches of a 256-player
bracket, which every result's writer reads twice.

For plain reads of one table only; everything else stays with the ORM.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any, TypeVar

from django.db import connections, models
from django.db.models.base import ModelState

M = TypeVar("M", bound=models.Model)
Converter = Callable[[Any, Any, Any], Any]


def fetch(
    model: type[models.Model],
    names: Sequence[str],
    where: str,
    params: Sequence[Any],
    order_by: Sequence[str] = (),
    using: str = "default",
) -> list[tuple]:
    """The rows of ``model`` matching ``where`` as tuples of the fields ``names`` (their
    attnames: ``tournament_id``), in ``order_by``'s order (field names; "-" for
    descending). ``where`` names the fields' columns as ``{name}``, its values are
    ``params``: ``fetch(Entry, ["id"], "{tournament_id} = %s", [7])``."""
    connection = connections[using]
    sql, converters = _compiled(model, tuple(names), where, tuple(order_by), connection.alias)
    with connection.cursor() as cursor:
        cursor.execute(sql, list(params))
        rows = cursor.fetchall()
    if not converters:
        return rows
    converted = []
    for row in rows:
        values = list(row)
        for index, convert in converters:
            values[index] = convert(values[index])
        converted.append(tuple(values))
    return converted


@lru_cache(maxsize=128)
def _compiled(
    model: type[models.Model], names: tuple[str, ...], where: str, order_by: tuple[str, ...], alias: str
) -> tuple[str, list[tuple[int, Callable[[Any], Any]]]]:
    connection = connections[alias]
    quote = connection.ops.quote_name
    fields = {f.attname: f for f in model._meta.concrete_fields}
    columns = {name: quote(field.column) for name, field in fields.items()}
    selected = ", ".join(columns[name] for name in names)
    ordering = ", ".join(
        f"{columns[name.removeprefix('-')]} {'DESC' if name.startswith('-') else 'ASC'}" for name in order_by
    )
    sql = f"SELECT {selected} FROM {quote(model._meta.db_table)} WHERE {where.format(**columns)}"  # noqa: S608
    if ordering:
        sql += f" ORDER BY {ordering}"
    converters = []
    for index, name in enumerate(names):
        field = fields[name]
        column = field.get_col(model._meta.db_table)
        chain = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if chain:
            converters.append((index, _chained(chain, column, connection)))
    return sql, converters


def _chained(chain: list[Converter], column: Any, connection: Any) -> Callable[[Any], Any]:
    def convert(value: Any) -> Any:
        for converter in chain:
            value = converter(value, column, connection)
        return value

    return convert


def instances(model: type[M], names: Iterable[str], rows: Iterable[tuple], using: str = "default") -> list[M]:
    """Model instances holding the fields ``names`` (attnames) of ``rows``, built straight
    from the values (the others load on first use, as with ``.only()``): a third of what
    Django's ``from_db`` costs. No ``pre_init``/``post_init`` signals (our models have no
    receivers)."""
    names = list(names)
    built = []
    for values in rows:
        instance = model.__new__(model)
        instance.__dict__.update(zip(names, values, strict=True))
        instance._state = ModelState()
        instance._state.adding, instance._state.db = False, using
        built.append(instance)
    return built


def attnames(model: type[models.Model]) -> list[str]:
    """Every concrete field's attname: what a whole row holds."""
    return [f.attname for f in model._meta.concrete_fields]
