"""Reading a list of players from a spreadsheet export: separators, BOM, Czech or
English header names, headerless files, and refusals that name the line."""

from __future__ import annotations

import pytest

from tournaments.csv_import import COLUMNS, MAX_ROWS, CsvError, CsvRow, parse_entries_csv


def row(line: int, **values: str) -> CsvRow:
    return CsvRow(line=line, values={column: values.get(column, "") for column in COLUMNS})


NOVAK = {"name": "Jan Novák", "rating": "1850", "club": "Sokol Brno", "country": "CZE"}
SVOBODOVA = {"name": "Eva Svobodová", "rating": "", "club": "ŠK Praha", "country": "SVK"}


@pytest.mark.parametrize(
    "text",
    [
        "name,rating,club,country\nJan Novák,1850,Sokol Brno,CZE\nEva Svobodová,,ŠK Praha,SVK\n",
        "name;rating;club;country\nJan Novák;1850;Sokol Brno;CZE\nEva Svobodová;;ŠK Praha;SVK\n",
        "name\trating\tclub\tcountry\nJan Novák\t1850\tSokol Brno\tCZE\nEva Svobodová\t\tŠK Praha\tSVK\n",
        # Windows line ends, no line end at the end, spaces around the values
        "name, rating, club, country\r\nJan Novák, 1850, Sokol Brno ,CZE\r\nEva Svobodová,,ŠK Praha,SVK",
    ],
    ids=["comma", "semicolon", "tab", "crlf-and-spaces"],
)
def test_a_file_separated_by_commas_semicolons_or_tabs_is_read(text):
    assert parse_entries_csv(text) == [row(2, **NOVAK), row(3, **SVOBODOVA)]


def test_a_semicolon_file_keeps_commas_inside_values():
    text = "jméno;klub\nNovák, Jan;Sokol Brno, z.s.\nDvořák, Petr;TJ Slavia\n"
    assert parse_entries_csv(text) == [
        row(2, name="Novák, Jan", club="Sokol Brno, z.s."),
        row(3, name="Dvořák, Petr", club="TJ Slavia"),
    ]


def test_a_quoted_value_may_hold_the_separator():
    text = 'name,club\n"Novák, Jan","Sokol Brno, z.s."\nEva,Praha\n'
    assert parse_entries_csv(text)[0] == row(2, name="Novák, Jan", club="Sokol Brno, z.s.")


def test_a_quoted_value_after_a_space_is_still_quoted():
    assert parse_entries_csv('name, club\nJan Novák, "Sokol, Brno"\n') == [row(2, name="Jan Novák", club="Sokol, Brno")]


def test_a_byte_order_mark_is_ignored():
    text = "\ufeffname;rating\nJan Novák;1850\n"
    assert parse_entries_csv(text) == [row(2, name="Jan Novák", rating="1850")]


def test_a_byte_order_mark_before_a_headerless_file_is_ignored():
    assert parse_entries_csv("\ufeffJan Novák,1850\n") == [row(1, name="Jan Novák", rating="1850")]


@pytest.mark.parametrize(
    ("header", "column"),
    [
        ("jméno", "name"),
        ("Jméno", "name"),
        ("jmeno", "name"),
        ("hráč", "name"),
        ("Player", "name"),
        ("NAME", "name"),
        ("klub", "club"),
        ("oddíl", "club"),
        ("země", "country"),
        ("stát", "country"),
        ("fed", "country"),
        ("nasazení", "seed"),
        ("nasazeni", "seed"),
        ("Elo", "rating"),
    ],
)
def test_header_names_in_czech_or_english_name_the_columns(header, column):
    if column == "name":
        text = f"{header};rating\nJan Novák;1850\n"
        expected = row(2, name="Jan Novák", rating="1850")
    else:
        text = f"name;{header}\nJan Novák;x1\n"
        expected = row(2, name="Jan Novák", **{column: "x1"})
    assert parse_entries_csv(text) == [expected]


def test_a_czech_header_with_all_columns_in_any_order():
    text = "nasazení;země;jméno;klub;elo\n1;CZE;Jan Novák;Sokol Brno;1850\n2;SVK;Eva Svobodová;ŠK Praha;\n"
    assert parse_entries_csv(text) == [
        row(2, name="Jan Novák", rating="1850", club="Sokol Brno", country="CZE", seed="1"),
        row(3, name="Eva Svobodová", club="ŠK Praha", country="SVK", seed="2"),
    ]


def test_a_header_of_just_the_names():
    assert parse_entries_csv("jméno\nJan\nEva\n") == [row(2, name="Jan"), row(3, name="Eva")]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Jan Novák,1850,Sokol Brno,CZE,1\n",
            [row(1, name="Jan Novák", rating="1850", club="Sokol Brno", country="CZE", seed="1")],
        ),
        (
            "Jan Novák;1850\nEva Svobodová;;ŠK Praha\n",
            [row(1, name="Jan Novák", rating="1850"), row(2, name="Eva Svobodová", club="ŠK Praha")],
        ),
        ("Jan Novák\nEva Svobodová\n", [row(1, name="Jan Novák"), row(2, name="Eva Svobodová")]),
        ("Jan\t\t\tCZE\n", [row(1, name="Jan", country="CZE")]),
        # trailing empty values, as a spreadsheet writes them, are not extra columns
        ("Jan;1850;;;;;;\n", [row(1, name="Jan", rating="1850")]),
    ],
    ids=["all-columns", "fewer-columns", "names-only", "tabs", "trailing-separators"],
)
def test_a_file_without_a_header_has_the_columns_name_rating_club_country_seed(text, expected):
    assert parse_entries_csv(text) == expected


def test_empty_lines_are_skipped_and_line_numbers_stay_those_of_the_file():
    text = "\nname,rating\n\nJan,1850\n\n \n,,\nEva,1700\n\n"
    assert parse_entries_csv(text) == [row(4, name="Jan", rating="1850"), row(8, name="Eva", rating="1700")]


def test_a_header_with_trailing_empty_columns_is_read():
    """Excel writes "jméno;klub;;" when a column once held something."""
    text = "jméno;klub;;\nJan;Sokol;;\n"
    assert parse_entries_csv(text) == [row(2, name="Jan", club="Sokol")]


def test_a_header_with_an_empty_column_in_the_middle_ignores_that_column():
    text = "name,,club\nJan,whatever,Sokol\n"
    assert parse_entries_csv(text) == [row(2, name="Jan", club="Sokol")]


# --- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "name,rating,email\nJan,1850,jan@example.com\n",
            "Line 1: unknown column(s) email; the columns are name, rating",
        ),
        ("\n\njméno;věk;pohlaví\nJan;30;M\n", "Line 3: unknown column(s) věk, pohlaví"),
        ("name,rating,name\nJan,1850,Jan\n", "Line 1: a column appears twice in the header"),
        ("jméno;name\nJan;Jan\n", "Line 1: a column appears twice in the header"),
        ("klub;oddíl;jméno\nA;B;Jan\n", "Line 1: a column appears twice in the header"),
        ("name,rating\nJan,1850\nEva,1700,Praha\n", "Line 3: 3 values but only 2 columns (name, rating)"),
        ("Jan,1850,Sokol,CZE,1,extra\n", "Line 1: 6 values but only 5 columns (name, rating, club, country, seed)"),
        ("\nname,rating\n\nJan,1850\nEva,1700,Praha,CZE\n", "Line 5: 4 values but only 2 columns"),
        ("name,rating\n", "Line 1: the file has a header but no players"),
        ("\n\njméno;klub\n\n", "Line 3"),
    ],
    ids=[
        "unknown-column",
        "unknown-czech-columns-after-empty-lines",
        "duplicate-column",
        "duplicate-by-alias",
        "duplicate-czech-aliases",
        "too-many-values",
        "too-many-values-without-header",
        "too-many-values-after-empty-lines",
        "header-only",
        "header-only-after-empty-lines",
    ],
)
def test_a_file_that_cannot_be_read_is_refused_with_the_line_number(text, message):
    with pytest.raises(CsvError) as error:
        parse_entries_csv(text)
    assert message in str(error.value)


def test_a_header_only_file_says_there_are_no_players():
    with pytest.raises(CsvError, match="no players"):
        parse_entries_csv("name;rating;club\n")


@pytest.mark.parametrize("text", ["", "\n", "\n\n  \n", "\ufeff", "\ufeff\r\n"])
def test_an_empty_file_is_refused(text):
    with pytest.raises(CsvError, match="The file is empty: put one player per line"):
        parse_entries_csv(text)


def test_a_file_of_only_separators_is_refused_as_empty():
    with pytest.raises(CsvError, match="The file is empty"):
        parse_entries_csv(";;;\n;;\n\n")


def test_a_headerless_semicolon_file_with_rows_of_different_lengths_is_still_split_on_semicolons():
    text = "Novák, Jan;1850\nEva Svobodová;;ŠK Praha;SVK\nPetr\n"
    assert parse_entries_csv(text) == [
        row(1, name="Novák, Jan", rating="1850"),
        row(2, name="Eva Svobodová", club="ŠK Praha", country="SVK"),
        row(3, name="Petr"),
    ]


def test_a_value_spanning_two_lines_does_not_shift_the_line_numbers():
    text = 'name,club\n"Jan Novák","Sokol\nBrno"\nEva,Praha\nPetr,Brno,x,y,z,extra\n'
    with pytest.raises(CsvError, match="Line 5: 6 values"):
        parse_entries_csv(text)
    rows = parse_entries_csv('name,club\n"Jan Novák","Sokol\nBrno"\nEva,Praha\n')
    assert rows[1].line == 4  # Eva is on line 4 of the file, not on the third record
    assert rows[0].values["club"] == "Sokol\nBrno"


def test_more_players_than_the_limit_are_refused():
    text = "\n".join(f"Player {i}" for i in range(MAX_ROWS + 1))
    with pytest.raises(CsvError, match=f"more than {MAX_ROWS} players"):
        parse_entries_csv(text)
    assert len(parse_entries_csv("\n".join(f"Player {i}" for i in range(MAX_ROWS)))) == MAX_ROWS
