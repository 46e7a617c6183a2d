"""Rule messages are English by default and translated message-first, values after."""

from games.text import Text, TextError, gettext_noop

FAKE_CATALOG = {
    "Game %(number)d ends level.": "Hra %(number)d skončila nerozhodně.",
    "Round %(number)d: %(problem)s": "Kolo %(number)d: %(problem)s",
    "This match": "Tento zápas",
}


def fake_gettext(message: str) -> str:
    return FAKE_CATALOG.get(message, message)


def test_gettext_noop_returns_the_message_unchanged():
    assert gettext_noop("Seed %(seed)d") == "Seed %(seed)d"


def test_an_error_reads_in_english_and_translates_with_its_values():
    error = TextError("Game %(number)d ends level.", number=2)
    assert str(error) == "Game 2 ends level."
    assert error.translate(fake_gettext) == "Hra 2 skončila nerozhodně."


def test_nested_messages_are_translated_too():
    inner = TextError("Game %(number)d ends level.", number=3)
    outer = TextError("Round %(number)d: %(problem)s", number=1, problem=inner)
    assert str(outer) == "Round 1: Game 3 ends level."
    assert outer.translate(fake_gettext) == "Kolo 1: Hra 3 skončila nerozhodně."
    assert Text("This match").translate(fake_gettext) == "Tento zápas"


def test_a_message_without_values_keeps_a_percent_sign_as_written():
    assert str(TextError("100% sure")) == "100% sure"
