"""A director and two players in a real browser (headless Chromium via Playwright):
create a tournament, import 12 players from CSV, make the draw; two players enter and
confirm a result through their private links; the public bracket shows the winner
advanced."""

import re

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import ARTIFACTS
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.browser

PLAYERS_CSV = "name;rating;club;country\n" + "\n".join(
    f"{name};{1900 - 25 * i};{club};CZ"
    for i, (name, club) in enumerate(
        [
            ("Jana Nováková", "KDH Praha"),
            ("Petr Svoboda", "Brno"),
            ("Lucie Dvořáková", "KDH Praha"),
            ("Tomáš Černý", "Ostrava"),
            ("Martin Procházka", "Plzeň"),
            ("Eva Kučerová", "Brno"),
            ("Jakub Veselý", "Olomouc"),
            ("Kateřina Horáková", "Liberec"),
            ("Ondřej Němec", "KDH Praha"),
            ("Tereza Marková", "Zlín"),
            ("Lukáš Pospíšil", "Ostrava"),
            ("Veronika Hájková", "Plzeň"),
        ]
    )
)


def test_director_and_players_run_a_knockout(browser, live_server, django_user_model, tmp_path):
    django_user_model.objects.create_user("jana", password="secret-jana")
    csv_file = tmp_path / "players.csv"
    csv_file.write_text(PLAYERS_CSV, encoding="utf-8")

    director = browser.new_page(locale="en-US")
    director.goto(f"{live_server.url}/director/")
    director.fill("#id_username", "jana")
    director.fill("#id_password", "secret-jana")
    director.click("button[type=submit]")

    director.click("text=New tournament")
    director.fill("#id_name", "Browser Cup")
    director.fill("#id_round_plan", "1")
    director.click("text=Create the tournament")
    expect(director.locator(".messages")).to_contain_text("Tournament created")

    director.set_input_files("#id_import-file", str(csv_file))
    director.click("button[name=import]")
    expect(director.locator(".messages")).to_contain_text("12 players imported")
    expect(director.locator("#entries tbody tr")).to_have_count(12)

    director.click("text=Overview")
    director.click("button[name=make-draw]")
    expect(director.locator(".messages")).to_contain_text("The draw is made")
    director.screenshot(path=str(ARTIFACTS / "director-dashboard.png"), full_page=True)

    tournament = Tournament.objects.get(name="Browser Cup")
    assert tournament.bracket_size == 16
    match = Match.objects.filter(tournament=tournament, round_number=1, status="ready").order_by("position").first()
    a, b = match.entry_a, match.entry_b

    # Player a enters the result on the phone (best of 1: one game).
    phone_a = browser.new_page(locale="en-US", viewport={"width": 390, "height": 844})
    phone_a.goto(f"{live_server.url}/p/{a.private_key}/")
    expect(phone_a.locator("h1")).to_have_text(a.name)
    phone_a.fill("#game-1-a", "21")
    phone_a.fill("#game-1-b", "17")
    phone_a.click("button[name=submit-result]")
    expect(phone_a.locator(".messages")).to_contain_text("Result entered")
    expect(phone_a.locator(".card").first).to_contain_text("waiting for your opponent")

    # Before confirmation the public bracket shows the result as provisional.
    public = browser.new_page(locale="en-US")
    public.goto(f"{live_server.url}/t/{tournament.slug}/")
    expect(public.locator(f"[data-match='{match.pk}']")).to_contain_text("provisional")

    # Player b confirms on their phone.
    phone_b = browser.new_page(locale="en-US", viewport={"width": 390, "height": 844})
    phone_b.goto(f"{live_server.url}/p/{b.private_key}/")
    expect(phone_b.locator(".card").first).to_contain_text("1–0 (21–17)")
    phone_b.click("button[name=confirm]")
    expect(phone_b.locator(".messages")).to_contain_text("Result confirmed")
    phone_b.screenshot(path=str(ARTIFACTS / "player-phone.png"), full_page=True)

    # The public bracket shows the winner advanced into the next round.
    public.reload()
    next_match = Match.objects.get(pk=match.winner_to_id)
    box = public.locator(f"[data-match='{next_match.pk}']")
    expect(box).to_contain_text(a.name)
    expect(public.locator(f"[data-match='{match.pk}'] .winner")).to_contain_text(a.name)
    public.screenshot(path=str(ARTIFACTS / "public-bracket.png"), full_page=True)
    assert re.search(r"Round of 16", public.content())
