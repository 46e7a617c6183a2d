"""Czech and English: the catalogs are complete and compiled, and the pages, the language
switch and the API speak Czech when asked.

The test settings use English (other tests assert English messages), so every test
here asks for Czech on purpose: ``override("cs")``, ``Accept-Language: cs``, the
language cookie, or ``LANGUAGE_CODE = "cs"`` as in production.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from games import registry
from tests.conftest import api_client_for, make_tournament
from tournaments import services
from tournaments.labels import round_name

LOCALE = Path(__file__).resolve().parent.parent / "locale"
CS_PO = LOCALE / "cs" / "LC_MESSAGES" / "django.po"
CZECH_PLURALS = "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;"


# --- A tiny PO reader (the standard library has none) --------------------------------
@dataclass
class PoEntry:
    msgid: str = ""
    msgid_plural: str | None = None
    msgctxt: str | None = None
    msgstr: dict[int, str] = field(default_factory=dict)  # 0 for a singular entry
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False
    line: int = 0


def read_po(path: Path) -> list[PoEntry]:
    """Entries of a PO file, the header (msgid "") first; obsolete ones marked."""
    entries: list[PoEntry] = []
    entry: PoEntry | None = None
    key: tuple[str, int] | None = None

    def append(value: str) -> None:
        assert entry is not None and key is not None
        name, index = key
        if name == "msgstr":
            entry.msgstr[index] = entry.msgstr.get(index, "") + value
        else:
            setattr(entry, name, (getattr(entry, name) or "") + value)

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = raw.strip()
        if not line:
            entry, key = None, None
            continue
        if entry is None:
            entry = PoEntry(line=number)
            entries.append(entry)
        if line.startswith("#~"):
            entry.obsolete = True
            continue
        if line.startswith("#,"):
            entry.flags.update(flag.strip() for flag in line[2:].split(","))
            continue
        if line.startswith("#"):
            continue
        match = re.fullmatch(r'(msgctxt|msgid_plural|msgid|msgstr)(?:\[(\d+)\])?\s+(".*")', line)
        if match:
            key = (match.group(1), int(match.group(2) or 0))
            if key[0] == "msgstr":
                entry.msgstr.setdefault(key[1], "")
            append(ast.literal_eval(match.group(3)))
        else:
            assert line.startswith('"'), f"{path}:{number}: cannot read {raw!r}"
            append(ast.literal_eval(line))
    return entries


def messages(path: Path) -> list[PoEntry]:
    """The live entries of a catalog, without its header."""
    return [e for e in read_po(path) if not e.obsolete and e.msgid]


def header(path: Path) -> dict[str, str]:
    head = read_po(path)[0]
    assert head.msgid == "", "the catalog starts with its header"
    return dict(line.split(": ", 1) for line in head.msgstr[0].splitlines() if ": " in line)


def placeholders(text: str) -> list[str]:
    return sorted(re.findall(r"%\([^)]+\)[-#0 +]*\d*(?:\.\d+)?[a-zA-Z]|%[sd]", text))


# --- (a) The Czech catalog is complete ----------------------------------------------
def test_czech_catalog_header():
    head = header(CS_PO)
    assert head["Language"] == "cs"
    assert head["Content-Type"] == "text/plain; charset=UTF-8"
    assert head["Plural-Forms"] == CZECH_PLURALS
    assert "fuzzy" not in read_po(CS_PO)[0].flags


def test_every_czech_message_is_translated_and_none_is_fuzzy():
    entries = messages(CS_PO)
    assert len(entries) > 200, "makemessages found the project's strings"
    untranslated = [
        e.msgid
        for e in entries
        if not e.msgstr
        or any(not text.strip() for text in e.msgstr.values())
        or (e.msgid_plural is not None and sorted(e.msgstr) != [0, 1, 2])
    ]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert untranslated == [], "translate these in locale/cs/LC_MESSAGES/django.po"
    assert fuzzy == [], "check these translations and remove their fuzzy flag"


# Where makemessages looks (and what it passes over), and the marking functions it knows
# (xgettext's keywords as Django gives them): name -> (context argument, message argument).
SOURCE = Path(__file__).resolve().parent.parent
SOURCE_FOLDERS = ("director", "tournaments", "games", "clocks", "templates")
MARKERS = {
    **dict.fromkeys(("_", "gettext", "gettext_lazy", "gettext_noop", "ngettext", "ngettext_lazy"), (None, 0)),
    **dict.fromkeys(("pgettext", "pgettext_lazy", "npgettext", "npgettext_lazy"), (0, 1)),
}
TEMPLATIZED_CALL = re.compile(r"\b(n?p?gettext)\((u'(?:[^'\\]|\\.)*'(?:, u'(?:[^'\\]|\\.)*')*)")


def marked_in_python(source: str) -> set[tuple[str | None, str]]:
    """(context, message) of every marked string literal, as xgettext finds them."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
        if name not in MARKERS:
            continue
        context_at, message_at = MARKERS[name]
        args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in node.args]
        if len(args) <= message_at or args[message_at] is None:
            continue  # a message held in a variable: marked where it is written
        found.add((args[context_at] if context_at is not None else None, args[message_at]))
    return found


def marked_in_template(source: str) -> set[tuple[str | None, str]]:
    """The same for a template: Django's own templatize turns its translate and
    blocktranslate tags into the calls makemessages hands to xgettext."""
    from django.utils.translation.template import templatize

    found = set()
    for name, args in TEMPLATIZED_CALL.findall(templatize(source)):
        values = ast.literal_eval(f"({args},)")
        found.add((values[0], values[1]) if "p" in name else (None, values[0]))
    return found


def test_every_message_marked_in_the_source_is_in_the_czech_catalog():
    """Nothing shows in English on a Czech page because makemessages was not run: every
    string marked for translation in the code and the templates has its entry (then the
    completeness test above makes sure it is translated)."""
    marked: dict[tuple[str | None, str], str] = {}
    for folder in SOURCE_FOLDERS:
        for path in sorted((SOURCE / folder).rglob("*")):
            if path.suffix == ".py" and "migrations" not in path.parts:
                found = marked_in_python(path.read_text(encoding="utf-8"))
            elif path.suffix in (".html", ".txt"):
                found = marked_in_template(path.read_text(encoding="utf-8"))
            else:
                continue
            for key in found:
                marked.setdefault(key, str(path.relative_to(SOURCE)))
    assert len(marked) > 500, "the scan found the project's strings"
    catalog = {(e.msgctxt, e.msgid) for e in messages(CS_PO)}
    missing = {f"{where}: {message!r}" for key, where in marked.items() if key not in catalog for message in key[1:]}
    assert not missing, "run manage.py makemessages -l cs -l en, then translate: " + ", ".join(sorted(missing))


def test_czech_messages_keep_every_placeholder_and_newline():
    for e in messages(CS_PO):
        for index, text in e.msgstr.items():
            source = e.msgid if index == 0 or e.msgid_plural is None else e.msgid_plural
            if "python-format" in e.flags or "python-brace-format" in e.flags:
                assert placeholders(text) == placeholders(source), (e.msgid, text)
            assert text.startswith("\n") == source.startswith("\n"), e.msgid
            assert text.endswith("\n") == source.endswith("\n"), e.msgid


def test_both_languages_have_a_compiled_catalog():
    for language in ("cs", "en"):
        po = LOCALE / language / "LC_MESSAGES" / "django.po"
        mo = po.with_suffix(".mo")
        assert po.exists() and mo.exists(), f"run compilemessages for {language}"
        assert header(po)["Language"] == language
    # English is the source language: its catalog exists with the same messages, untranslated.
    english = messages(LOCALE / "en" / "LC_MESSAGES" / "django.po")
    assert {e.msgid for e in english} == {e.msgid for e in messages(CS_PO)}


# --- (b) The committed .mo says what the .po says -----------------------------------
def test_compiled_czech_catalog_matches_the_po_file():
    """Every message, looked up through Django, gives the .po file's Czech: the .mo is
    not older than the .po (recompile with ``manage.py compilemessages`` if this fails)."""
    stale = []
    with translation.override("cs"):
        for e in messages(CS_PO):
            if "fuzzy" in e.flags or not all(e.msgstr.values()):
                continue  # not translated yet: the completeness test names these
            if e.msgid_plural is None:
                if e.msgctxt is not None:
                    got = translation.pgettext(e.msgctxt, e.msgid)
                else:
                    got = translation.gettext(e.msgid)
                if got != e.msgstr[0]:
                    stale.append((e.msgid, got, e.msgstr[0]))
                continue
            for n, form in ((1, 0), (3, 1), (5, 2)):
                if e.msgctxt is not None:
                    got = translation.npgettext(e.msgctxt, e.msgid, e.msgid_plural, n)
                else:
                    got = translation.ngettext(e.msgid, e.msgid_plural, n)
                if got != e.msgstr[form]:
                    stale.append((f"{e.msgid} (n={n})", got, e.msgstr[form]))
    assert stale == [], "the .mo file is out of date: run manage.py compilemessages"


def test_a_few_czech_words_through_gettext():
    with translation.override("cs"):
        assert translation.gettext("Tournaments") == "Turnaje"
        assert translation.gettext("Make the draw") == "Vylosovat pavouka"
        assert translation.gettext("Walkover") == "Kontumace"
        assert translation.gettext("Audit log") == "Protokol změn"
    with translation.override("en"):
        assert translation.gettext("Make the draw") == "Make the draw"


def test_czech_plural_forms_and_round_names():
    with translation.override("cs"):
        describe = registry.SCORED.describe_round_settings
        assert [describe({"best_of": k}) for k in (1, 3, 5, 7)] == ["na 1 hru", "na 3 hry", "na 5 her", "na 7 her"]
        assert [round_name("main", number, 64) for number in range(1, 7)] == [
            "Kolo posledních 64",
            "Šestnáctifinále",
            "Osmifinále",
            "Čtvrtfinále",
            "Semifinále",
            "Finále",
        ]
        assert round_name("third_place", 1, 8) == "Zápas o 3. místo"
        assert round_name("consolation", 1, 8) == "Útěcha: Semifinále"
    with translation.override("en"):
        assert registry.SCORED.describe_round_settings({"best_of": 3}) == "best of 3"
        assert round_name("main", 3, 64) == "Round of 16"


# --- (c) Czech is the default --------------------------------------------------------
@pytest.mark.django_db
def test_czech_is_the_default_without_accept_language(settings, director):
    settings.LANGUAGE_CODE = "cs"
    make_tournament(director, players=4, draw=False, name="Velká cena Brna")

    response = Client().get(reverse("public:tournament-list"))

    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="cs">' in html
    assert "<h1>Turnaje</h1>" in html
    assert "Přihlášení pro ředitele" in html
    assert "Velká cena Brna" in html and "Přihlášky" in html  # the tournament's status
    assert "Tournaments" not in html


@pytest.mark.django_db
def test_english_settings_and_no_header_give_english(client):
    html = client.get(reverse("public:tournament-list")).content.decode()
    assert '<html lang="en">' in html and "<h1>Tournaments</h1>" in html


@pytest.mark.django_db
def test_accept_language_chooses_czech_pages(director):
    tournament = make_tournament(director, players=8)

    html = Client(HTTP_ACCEPT_LANGUAGE="cs").get(tournament.get_absolute_url()).content.decode()

    assert "Pavouk" in html and "Čtvrtfinále" in html and "Finále" in html
    assert "Bracket" not in html and "Quarter-finals" not in html


# --- (d) The switch in the header ----------------------------------------------------
@pytest.mark.django_db
def test_language_switch():
    client = Client(HTTP_ACCEPT_LANGUAGE="cs")
    home = reverse("public:tournament-list")
    assert "<h1>Turnaje</h1>" in client.get(home).content.decode()

    response = client.post(reverse("set_language"), {"language": "en", "next": home})
    assert response.status_code == 302 and response["Location"] == home
    html = client.get(home).content.decode()
    assert '<html lang="en">' in html and "<h1>Tournaments</h1>" in html

    client.post(reverse("set_language"), {"language": "cs", "next": home})
    html = client.get(home).content.decode()
    assert '<html lang="cs">' in html and "<h1>Turnaje</h1>" in html


# --- (e) The API's refusals in Czech -------------------------------------------------
@pytest.mark.django_db
def test_api_error_in_czech(director_user, director):
    tournament = services.create_tournament(director, name="Pražský pohár")
    url = f"/api/tournaments/{tournament.slug}/entries/"
    client = api_client_for(director_user)

    response = client.post(url, {"name": "  "}, format="json", HTTP_ACCEPT_LANGUAGE="cs")

    assert response.status_code == 400
    assert response.json() == {"detail": "Jméno hráče je prázdné.", "errors": {"name": ["Jméno hráče je prázdné."]}}
    english = client.post(url, {"name": ""}, format="json", HTTP_ACCEPT_LANGUAGE="en")
    assert english.json()["detail"] == "The player's name is empty."
    assert tournament.entries.count() == 0


@pytest.mark.django_db
def test_api_permission_and_not_found_in_czech(director, other_director_user):
    tournament = services.create_tournament(director, name="Ostravský turnaj")
    services.open_registration(director, tournament.pk)
    client = api_client_for(other_director_user)

    refused = client.post(
        f"/api/tournaments/{tournament.slug}/entries/", {"name": "Eva"}, format="json", HTTP_ACCEPT_LANGUAGE="cs"
    )
    missing = client.get("/api/tournaments/zadny-takovy/", HTTP_ACCEPT_LANGUAGE="cs")

    assert refused.status_code == 403
    assert refused.json()["detail"] == "Toto může provést jen ředitel tohoto turnaje."
    assert missing.status_code == 404
    assert missing.json()["detail"] == "Takový turnaj neexistuje."


@pytest.mark.django_db
def test_rule_errors_of_the_pure_modules_in_czech(director_user, director):
    """The scored game's and the CSV reader's messages (marked with gettext_noop) come
    translated, with their values filled in after translation."""
    tournament = make_tournament(director, players=2)
    match = tournament.matches.get(flight="main", round_number=1)
    player = api_client_for(entry=match.entry_a)

    level = player.post(
        f"/api/matches/{match.pk}/results/",
        {"result": {"games": [[21, 21]]}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="cs",
    )

    assert level.status_code == 400
    assert level.json()["detail"] == (
        "1. hra končí nerozhodně (21–21); každá hra musí mít vítěze — zadejte konečné skóre po tie-breaku."
    )

    draft = services.create_tournament(director, name="Liberecký open")
    empty = api_client_for(director_user).post(
        f"/api/tournaments/{draft.slug}/entries/import/", {"csv": "  "}, format="json", HTTP_ACCEPT_LANGUAGE="cs"
    )
    assert empty.status_code == 400
    assert empty.json()["detail"] == "Soubor je prázdný: uveďte jednoho hráče na řádek, např. 'jméno,rating,klub'."


@pytest.mark.parametrize(
    ("language", "next_url", "cookie", "goes_to"),
    [
        ("en", "/t/x/", "en", "/t/x/"),
        ("cs", "/", "cs", "/"),
        ("xx", "/t/x/", None, "/t/x/"),  # an unknown language changes nothing
        ("en", "https://evil.example/", "en", "/"),  # never away from the site
    ],
)
def test_the_header_switch_is_a_get_that_sets_the_language_cookie(language, next_url, cookie, goes_to):
    response = Client().get(reverse("choose-language"), {"language": language, "next": next_url})
    assert response.status_code == 302 and response["Location"] == goes_to
    set_cookie = response.cookies.get(settings.LANGUAGE_COOKIE_NAME)
    assert (set_cookie.value if set_cookie else None) == cookie
    assert Client().post(reverse("choose-language"), {"language": "en"}).status_code == 405
