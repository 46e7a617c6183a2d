"""Reading a list of players from a CSV file, as pure functions.

Accepts what directors export from a spreadsheet: UTF-8 (with or without a BOM),
separated by commas, semicolons (Czech Excel) or tabs, with a header row naming the
columns (English or Czech names) or, without one, the columns in the order name,
rating, club, country, seed. Empty lines are skipped. Values are returned as text;
the service checks them with the same rules as a player added by hand.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from games.text import TextError, gettext_noop

COLUMNS = ("name", "rating", "club", "country", "seed")
HEADER_ALIASES = {
    "name": "name",
    "player": "name",
    "jméno": "name",
    "jmeno": "name",
    "hráč": "name",
    "hrac": "name",
    "rating": "rating",
    "elo": "rating",
    "club": "club",
    "klub": "club",
    "oddíl": "club",
    "oddil": "club",
    "country": "country",
    "země": "country",
    "zeme": "country",
    "stát": "country",
    "stat": "country",
    "fed": "country",
    "seed": "seed",
    "nasazení": "seed",
    "nasazeni": "seed",
}
MAX_ROWS = 5000


class CsvError(TextError):
    """The file cannot be read as a list of players; the message says where and why."""


@dataclass(frozen=True)
class CsvRow:
    line: int
    values: dict[str, str]


def parse_entries_csv(text: str) -> list[CsvRow]:
    text = text.lstrip("\ufeff")
    if not text.strip():
        raise CsvError(gettext_noop("The file is empty: put one player per line, e.g. 'name,rating,club'."))
    lines = text.splitlines()
    sample = "\n".join(lines[:20])
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
        delimiter = dialect.delimiter
    except csv.Error:
        # Rows of different lengths defeat the sniffer: take the separator seen most.
        delimiter = max(",;\t", key=sample.count)
    reader = csv.reader(io.StringIO(text), delimiter=delimiter, skipinitialspace=True)

    rows: list[CsvRow] = []
    columns: tuple[str, ...] | None = None
    header_line: int | None = None
    for cells in reader:
        line_number = reader.line_num  # the file's line, whatever spans several
        cells = [cell.strip() for cell in cells]
        if not any(cells):
            continue
        if columns is None:
            header = [HEADER_ALIASES.get(cell.lower()) for cell in cells]
            if "name" in header:
                unknown = [cells[i] for i, column in enumerate(header) if column is None and cells[i]]
                if unknown:
                    raise CsvError(
                        gettext_noop("Line %(line)d: unknown column(s) %(names)s; the columns are %(columns)s."),
                        line=line_number,
                        names=", ".join(unknown),
                        columns=", ".join(COLUMNS),
                    )
                named = [column for column in header if column]
                if len(set(named)) != len(named):
                    raise CsvError(
                        gettext_noop("Line %(line)d: a column appears twice in the header."), line=line_number
                    )
                columns = tuple(column or "" for column in header)
                header_line = line_number
                continue
            columns = COLUMNS
        if len(cells) > len(columns):
            extra = [cell for cell in cells[len(columns) :] if cell]
            if extra:
                raise CsvError(
                    gettext_noop("Line %(line)d: %(values)d values but only %(count)d columns (%(columns)s)."),
                    line=line_number,
                    values=len(cells),
                    count=len(columns),
                    columns=", ".join(c for c in columns if c),
                )
        values = {column: "" for column in COLUMNS}
        for column, cell in zip(columns, cells, strict=False):
            if column:
                values[column] = cell
        rows.append(CsvRow(line=line_number, values=values))
        if len(rows) > MAX_ROWS:
            raise CsvError(gettext_noop("The file has more than %(max)d players."), max=MAX_ROWS)
    if not rows and header_line is None:
        raise CsvError(gettext_noop("The file is empty: put one player per line, e.g. 'name,rating,club'."))
    if not rows:
        raise CsvError(gettext_noop("Line %(line)d: the file has a header but no players below it."), line=header_line)
    return rows
