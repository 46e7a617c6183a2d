"""The demo a new user sees after ``make run``: a director login, a 16-player knockout
of the generic scored game with results in every state (confirmed, waiting for
confirmation, disputed), an 8-player backgammon knockout with a match at the
Crawford game (match clocks allowed), a 4-player Scrabble knockout with a game in
progress whose 2-minute move clock runs, an 8-player chess knockout of two-game
mini-matches (one in a rapid tie-break, one with its clock running: 90+30 scaled down to
15 min + 5 s), and a 5-player backgammon chouette at the club with a few games played.

Everything is made through the services, as a director and players would make it.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import transaction
from django.urls import reverse

from clocks import services as clock_services
from games.backgammon import chouette_services
from games.backgammon import services as backgammon_services
from games.backgammon.models import BackgammonGame, ChouetteSession
from games.chess import services as chess_services
from games.chess.models import ChessGame
from games.scrabble import services as scrabble_services
from games.scrabble import sheet as scrabble_sheet
from tournaments import services
from tournaments.access import Actor
from tournaments.models import Match, ResultSubmission, Tournament

DIRECTOR_USERNAME = "director"
DIRECTOR_PASSWORD = "director"
KNOCKOUT_SLUG = "demo-open"
BACKGAMMON_SLUG = "demo-backgammon"
SCRABBLE_SLUG = "demo-scrabble"
CHESS_SLUG = "demo-chess"
DRAW_SEED = 20261122

PLAYERS = [
    ("Jana Nováková", 1820, "KDH Praha", "CZ"),
    ("Petr Svoboda", 1790, "Brno Dice", "CZ"),
    ("Lucie Dvořáková", 1765, "KDH Praha", "CZ"),
    ("Tomáš Černý", 1740, "Ostrava BG", "CZ"),
    ("Martin Procházka", 1712, "Plzeň", "CZ"),
    ("Eva Kučerová", 1690, "Brno Dice", "CZ"),
    ("Jakub Veselý", 1672, "Olomouc", "CZ"),
    ("Kateřina Horáková", 1655, "Liberec", "CZ"),
    ("Ondřej Němec", 1630, "KDH Praha", "CZ"),
    ("Tereza Marková", 1611, "Zlín", "CZ"),
    ("Lukáš Pospíšil", 1598, "Ostrava BG", "CZ"),
    ("Veronika Hájková", 1580, "Plzeň", "CZ"),
    ("Michal Král", 1562, "Hradec Králové", "CZ"),
    ("Zuzana Jelínková", 1540, "Bratislava", "SK"),
    ("David Růžička", 1525, "Olomouc", "CZ"),
    ("Barbora Benešová", 1500, "Liberec", "CZ"),
]

# Round 1 (best of 3), in bracket order: each match's games, top player's score first.
FIRST_ROUND_GAMES = [
    [[21, 12], [21, 17]],
    [[18, 21], [21, 15], [21, 19]],
    [[21, 9], [21, 14]],
    [[15, 21], [21, 18], [17, 21]],
    [[21, 16], [19, 21], [21, 11]],
    [[21, 13], [21, 20]],
    [[12, 21], [14, 21]],
    [[21, 18], [21, 19]],
]


BACKGAMMON_PLAYERS = [
    ("Adam Beneš", 1840, "BG Club Praha", "CZ"),
    ("Bohdana Čermáková", 1795, "Vrhcáby Brno", "CZ"),
    ("Cyril Doležal", 1760, "BG Club Praha", "CZ"),
    ("Dana Fialová", 1720, "Ostrava", "CZ"),
    ("Emil Holub", 1690, "Vrhcáby Brno", "CZ"),
    ("Filip Jirásek", 1655, "Plzeň", "CZ"),
    ("Gabriela Kopecká", 1610, "Bratislava BG", "SK"),
    ("Hynek Lukáš", 1580, "Olomouc", "CZ"),
]

# First round, matches to 5 points, in bracket order: (winner slot, kind, cube, ending).
BACKGAMMON_FIRST_ROUND = [
    # 5–2: a gammon on a cube of 2 (4–0), the Crawford game (4–1), then 4–2 and 5–2.
    [("a", "gammon", 2, "played"), ("b", "single", 1, "played"), ("b", "single", 1, "played"),
     ("a", "single", 1, "played")],
    # 5–4: b reaches 4 (Crawford), a wins it with a gammon, then a double taken and won.
    [("a", "single", 1, "played"), ("b", "gammon", 2, "played"), ("a", "gammon", 1, "played"),
     ("a", "single", 2, "played")],
    # 4–1: the next game is the Crawford game.
    [("a", "single", 1, "played"), ("b", "single", 1, "played"), ("a", "single", 4, "dropped"),
     ("a", "single", 1, "played")],
    # 1–3, the last game waiting for the opponent's confirmation.
    [("b", "gammon", 1, "played"), ("a", "single", 1, "played"), ("b", "single", 1, "played")],
]  # fmt: skip


CHOUETTE_NAME = "Klubová chouette"
CHOUETTE_PLAYERS = ["Alois Bárta", "Božena Čapková", "Ctibor Dušek", "Drahomíra Eliášová", "Evžen Fiala"]
# The opening rolls by name: Alois and Ctibor tie at 5 and roll again.
CHOUETTE_ROLLS = [
    {"Alois Bárta": 5, "Božena Čapková": 3, "Ctibor Dušek": 5, "Drahomíra Eliášová": 2, "Evžen Fiala": 6},
    {"Alois Bárta": 2, "Ctibor Dušek": 4},
]  # the line: Evžen (box), Ctibor (captain), Alois, Božena, Drahomíra


@dataclass(frozen=True)
class DemoSummary:
    tournament: Tournament | None
    # (who, what they can do, private path) of players who have something to do now.
    player_links: list[tuple[str, str, str]]
    chouette: ChouetteSession | None = None  # the club chouette, which belongs to no tournament


def load(reset: bool = False) -> list[tuple[Tournament | ChouetteSession, bool]]:
    """Create the demo tournaments and the chouette that are missing (all of them again
    with ``reset``). Returns each and whether it was made now."""
    user = _director()
    loaded: list[tuple[Tournament | ChouetteSession, bool]] = []
    builds = (
        (KNOCKOUT_SLUG, _knockout),
        (BACKGAMMON_SLUG, _backgammon),
        (SCRABBLE_SLUG, _scrabble),
        (CHESS_SLUG, _chess),
    )
    for slug, build in builds:
        existing = Tournament.objects.filter(slug=slug).first()
        if existing is not None and not reset:
            loaded.append((existing, False))
            continue
        if existing is not None:
            existing.delete()
        loaded.append((build(user), True))
    existing = demo_chouette()
    if existing is not None and reset:
        existing.delete()
    if existing is None or reset:
        loaded.append((_chouette(user), True))
    else:
        loaded.append((existing, False))
    return loaded


def demo_chouette() -> ChouetteSession | None:
    return ChouetteSession.objects.filter(name=CHOUETTE_NAME, created_by__username=DIRECTOR_USERNAME).first()


def _director():
    User = get_user_model()
    user, created = User.objects.get_or_create(
        username=DIRECTOR_USERNAME, defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        user.set_password(DIRECTOR_PASSWORD)
        user.save()
    return user


def _drawn(director: Actor, slug: str, players: list[tuple[str, int, str, str]], **fields) -> Tournament:
    """A tournament at ``slug`` with these players (name, rating, club, country), its
    registration opened and its draw made with the demo's seed."""
    tournament = services.create_tournament(director, **fields)
    tournament.slug = slug
    tournament.save(update_fields=["slug"])
    for name, rating, club, country in players:
        services.add_entry(director, tournament.pk, name=name, rating=rating, club=club, country=country)
    services.open_registration(director, tournament.pk)
    services.make_draw(director, tournament.pk, random_seed=DRAW_SEED)
    return tournament


def _knockout(user) -> Tournament:
    director = Actor(user=user)
    with transaction.atomic():
        tournament = _drawn(
            director,
            KNOCKOUT_SLUG,
            PLAYERS,
            name="Demo Open 2026",
            venue="Praha, Klub deskových her",
            seeding_method=Tournament.Seeding.RATING,
            third_place_match=True,
            confirmation_timeout_seconds=600,
            round_plan="3, 3, 3, 5",
        )

        first_round = list(tournament.matches.filter(flight="main", round_number=1).order_by("position"))
        for match, games in zip(first_round, FIRST_ROUND_GAMES, strict=True):
            _played(match, games)

        # Quarter-finals: two confirmed, one waiting for the opponent's confirmation,
        # one disputed; nothing entered yet in the semi-finals.
        quarter_finals = list(tournament.matches.filter(flight="main", round_number=2).order_by("position"))
        _played(quarter_finals[0], [[21, 18], [16, 21], [21, 14]])
        _played(quarter_finals[1], [[21, 19], [21, 15]])
        submitter = Actor(entry=quarter_finals[2].entry_b)
        services.submit_result(submitter, quarter_finals[2].pk, {"games": [[21, 17], [21, 11]]})
        submitter = Actor(entry=quarter_finals[3].entry_a)
        submission = services.submit_result(submitter, quarter_finals[3].pk, {"games": [[21, 19], [21, 20]]})
        services.dispute_result(
            Actor(entry=quarter_finals[3].entry_b), submission.pk, "The second game ended 21–20 for me."
        )
    tournament.refresh_from_db()
    return tournament


def _backgammon(user) -> Tournament:
    director = Actor(user=user)
    with transaction.atomic():
        tournament = _drawn(
            director,
            BACKGAMMON_SLUG,
            BACKGAMMON_PLAYERS,
            name="Backgammon Open 2026",
            game_type="backgammon",
            venue="Brno, Vrhcábový klub",
            seeding_method=Tournament.Seeding.RATING,
            confirmation_timeout_seconds=600,
            round_plan="5, 5, 7",
            settings={"crawford": True, "clock": "allowed"},
        )
        first_round = list(tournament.matches.filter(flight="main", round_number=1).order_by("position"))
        for match, games in zip(first_round, BACKGAMMON_FIRST_ROUND, strict=True):
            for number, (winner, kind, cube, ending) in enumerate(games, start=1):
                match.refresh_from_db()
                a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
                entered_by, confirmer = (a, b) if winner == "a" else (b, a)
                row = backgammon_services.record_game(
                    entered_by, match.pk, {"winner": winner, "kind": kind, "cube": cube, "ending": ending}
                )
                last_of_an_unfinished_match = match is first_round[-1] and number == len(games)
                if not last_of_an_unfinished_match:
                    backgammon_services.confirm_game(confirmer, row.pk)
    tournament.refresh_from_db()
    return tournament


SCRABBLE_PLAYERS = [
    ("Alena Malá", 1650, "SK Praha", "CZ"),
    ("Bedřich Velký", 1610, "Scrabble Brno", "CZ"),
    ("Cecílie Nová", 1580, "SK Praha", "CZ"),
    ("Daniel Starý", 1540, "Olomouc", "CZ"),
]


def _scrabble(user) -> Tournament:
    director = Actor(user=user)
    with transaction.atomic():
        tournament = _drawn(
            director,
            SCRABBLE_SLUG,
            SCRABBLE_PLAYERS,
            name="Scrabble Open 2026",
            game_type="scrabble",
            venue="Praha, Scrabble klub",
            seeding_method=Tournament.Seeding.RATING,
            confirmation_timeout_seconds=600,
            round_plan="3",
            # Two minutes per move, enforced by the worker: the game in progress has
            # its clock running, and a move not made in time becomes a timeout pass.
            settings={"clock": "per_move", "move_seconds": 120},
        )
        match = tournament.matches.filter(flight="main", round_number=1).order_by("position").first()
        a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)

        def move(actor, position, word, extra=0):
            true = scrabble_services.preview_turn(actor, match.pk, _place(position, word, 0)).true_score
            return scrabble_services.record_turn(actor, match.pk, _place(position, word, true + extra))

        move(a, "8D", "SLOVA")
        scrabble_services.record_turn(b, match.pk, {"kind": "exchange", "exchanged": 4})
        overscored = move(a, "D7", "A.", extra=3)  # announced 3 too many: b protests
        scrabble_services.raise_protest(b, overscored.pk, "overscore")
        move(b, "H7", "K.")
        scrabble_services.record_turn(a, match.pk, {"kind": "pass"})
    tournament.refresh_from_db()
    return tournament


CHESS_PLAYERS = [
    ("Viktor Láznička", 2650, "ŠK Pardubice", "CZE"),
    ("Kateřina Němcová", 2410, "ŠK Slavia Praha", "CZE"),
    ("Jiří Štoček", 2560, "ŠK Mahrla Praha", "CZE"),
    ("Zuzana Hagarová", 2290, "ŠK Dunajská Streda", "SVK"),
    ("Vojtěch Plát", 2540, "ŠK Lokomotiva Brno", "CZE"),
    ("Karolína Olšarová", 2350, "ŠK Frýdek-Místek", "CZE"),
    ("Tomáš Polák", 2480, "ŠK Lokomotiva Brno", "CZE"),
    ("Lenka Ptáčníková", 2260, "ŠK Slavia Praha", "CZE"),
]
SCHOLARS_MATE = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qxf7#"


def _chess(user) -> Tournament:
    """Quarter-finals of two-game mini-matches: one won 1½–½ (a game with its moves),
    one level after two games and in the rapid tie-break, one with game 2's clock
    running (the worker records a flag fall if nobody presses), one whose first game
    waits for the opponent's confirmation."""
    director = Actor(user=user)
    with transaction.atomic():
        tournament = _drawn(
            director,
            CHESS_SLUG,
            CHESS_PLAYERS,
            name="Chess Open 2026",
            game_type="chess",
            venue="Praha, Šachový klub",
            seeding_method=Tournament.Seeding.RATING,
            third_place_match=True,
            confirmation_timeout_seconds=600,
            round_plan="2",
            settings={
                "time_control": "900+5",  # 90 min + 30 s, scaled down for the demo
                "tiebreaks": "2x600+5; armageddon 180+2 v 150+2 @61",
                "clock": "allowed",
            },
        )
        won, tiebreak, clocked, waiting = tournament.matches.filter(flight="main", round_number=1).order_by("position")

        def game(match, data, confirm=True):
            match.refresh_from_db()
            white = chess_services.state_of(match).next_game.white
            players = {"a": Actor(entry=match.entry_a), "b": Actor(entry=match.entry_b)}
            black = "b" if white == "a" else "a"
            row = chess_services.record_game(players[white], match.pk, data)
            if confirm:
                chess_services.confirm_game(players[black], row.pk)
            return white

        game(won, {"result": "1-0", "termination": "checkmate", "moves": SCHOLARS_MATE})
        game(won, {"result": "1/2-1/2"})
        game(tiebreak, {"result": "1-0"})
        game(tiebreak, {"result": "1-0"})  # 1–1: the rapid tie-break
        game(tiebreak, {"result": "1/2-1/2", "termination": "threefold_repetition"})
        game(clocked, {"result": "0-1"})
        clocked.refresh_from_db()
        white = chess_services.state_of(clocked).next_game.white
        clock = clock_services.start_clock(Actor(entry=clocked.entry_on(white)), clocked.pk, white)
        clock_services.press_clock(Actor(entry=clocked.entry_on(white)), clocked.pk, white, clock.version)
        game(waiting, {"result": "0-1", "termination": "resignation"}, confirm=False)
    tournament.refresh_from_db()
    return tournament


def _chouette(user) -> ChouetteSession:
    """The club's chouette: the line from the opening rolls (one tie rolled again), then
    five games entered at the table through its link."""
    with transaction.atomic():
        session = chouette_services.create_session(
            Actor(user=user),
            CHOUETTE_NAME,
            CHOUETTE_PLAYERS,
            stake_cents=1000,
            currency="CZK",
            settings={"cubes": "many"},
        )
        ids = {player.name: str(player.pk) for player in session.players.all()}
        a, b, c, d, e = (ids[name] for name in CHOUETTE_PLAYERS)  # by their initials
        table = Actor()
        rolls = [{ids[name]: die for name, die in dice.items()} for dice in CHOUETTE_ROLLS]
        chouette_services.set_line(table, session.pk, session.table_key, rolls=rolls)
        games = [
            # E box, C captain: the box wins a single against everybody. Next: E, A, B, D, C.
            {"board": {"winner": "box", "kind": "single"}},
            # A captains; B took the box's double: the team wins a gammon. Next: A, B, D, C, E.
            {"board": {"winner": "team", "kind": "gammon"}, "cubes": {b: {"value": 2, "owner": "member"}}},
            # A box, B captain; D drops the box's double and pays 1; the box wins. Next: A, D, C, E, B.
            {"board": {"winner": "box", "kind": "single"}, "cubes": {d: {"value": 2, "dropped_by": "member"}}},
            # The box doubles everybody: captain D and B drop, C and E take; C takes over the board
            # and beats the box. Next: C, E, B, D, A.
            {
                "board": {"winner": "team", "kind": "single"},
                "cubes": {
                    d: {"value": 2, "dropped_by": "member"},
                    b: {"value": 2, "dropped_by": "member"},
                    c: {"value": 2, "owner": "member"},
                    e: {"value": 2, "owner": "member"},
                },
                "takeover": c,
            },
            # C box, E captain: E doubles, the box takes and wins a gammon. Next: C, B, D, A, E.
            {"board": {"winner": "box", "kind": "gammon"}, "cubes": {e: {"value": 2, "owner": "box"}}},
        ]
        for game in games:
            chouette_services.record_game(table, session.pk, game, key=session.table_key)
    session.refresh_from_db()
    return session


def _place(position: str, word: str, announced: int) -> dict:
    return {"kind": "place", "position": position, "word": word, "announced": announced}


def _played(match: Match, games: list[list[int]]) -> None:
    """The top player enters the result, the opponent confirms it."""
    match.refresh_from_db()
    entered_by = Actor(entry=match.entry_a)
    submission = services.submit_result(entered_by, match.pk, {"games": games})
    services.confirm_result(Actor(entry=match.entry_b), submission.pk)


def summary() -> list[DemoSummary]:
    demos = []
    slugs = [KNOCKOUT_SLUG, BACKGAMMON_SLUG, SCRABBLE_SLUG, CHESS_SLUG]
    for tournament in Tournament.objects.filter(slug__in=slugs).order_by("-created_at"):
        links = []
        waiting = (
            ResultSubmission.objects.filter(match__tournament=tournament, status=ResultSubmission.Status.PROVISIONAL)
            .select_related("match__entry_a", "match__entry_b", "submitted_by_entry")
            .order_by("match__round_number", "match__position")
        )
        for submission in waiting:
            opponent = submission.match.opponent_of(submission.submitted_by_entry)
            links.append((opponent.name, "confirm or dispute a result", opponent.get_private_url()))
        games = BackgammonGame.objects.filter(match__tournament=tournament, status="provisional").select_related(
            "match__entry_a", "match__entry_b", "entered_by_entry"
        )
        for game in games:
            opponent = game.match.opponent_of(game.entered_by_entry)
            links.append((opponent.name, "confirm a game on the score sheet", opponent.get_private_url()))
        chess_games = ChessGame.objects.filter(match__tournament=tournament, status="provisional").select_related(
            "match__entry_a", "match__entry_b", "entered_by_entry"
        )
        for game in chess_games:
            opponent = game.match.opponent_of(game.entered_by_entry)
            links.append((opponent.name, "confirm a game of the mini-match", opponent.get_private_url()))
        ready = tournament.matches.filter(status=Match.Status.READY).select_related("entry_a", "entry_b", "round")
        if tournament.game_type == "chess":
            for match in ready.filter(clock__phase="running")[:1]:
                running = match.entry_on(match.clock.running)
                links.append((running.name, "on move: the clock runs (15 min + 5 s)", running.get_private_url()))
            demos.append(DemoSummary(tournament=tournament, player_links=links))
            continue
        if tournament.game_type == "scrabble":
            for match in ready.filter(started_at__isnull=False)[:1]:
                match.tournament = tournament
                on_turn = scrabble_sheet.match_view(match).current.on_turn
                player = match.entry_a if on_turn == "a" else match.entry_b
                links.append(
                    (
                        player.name,
                        "enter the next move on the score sheet; 2-minute move clock",
                        player.get_private_url(),
                    )
                )
            demos.append(DemoSummary(tournament=tournament, player_links=links))
            continue
        crawford = [m for m in ready if tournament.game.sheet and _at_crawford(m)]
        for match in crawford[:1] or ready.order_by("round_number", "position")[:1]:
            what = "play the Crawford game" if crawford else "enter a result"
            links.append((match.entry_a.name, what, match.entry_a.get_private_url()))
        demos.append(DemoSummary(tournament=tournament, player_links=links))
    chouette = demo_chouette()
    if chouette is not None:
        demos.append(DemoSummary(tournament=None, player_links=[], chouette=chouette))
    return demos


def _at_crawford(match: Match) -> bool:
    live = match.tournament.game.sheet.live_states(match.tournament, [match]).get(match.pk)
    return bool(live and live.data["next_game_is_crawford"])


def describe(demos: list[DemoSummary], base: str) -> str:
    """The addresses ``make run`` prints."""
    lines = [
        f"  Public pages:       {base}/",
        f"  Director's pages:   {base}/director/   (user {DIRECTOR_USERNAME!r}, password {DIRECTOR_PASSWORD!r})",
        f"  API docs:           {base}/api/docs/   (its OpenAPI schema: {base}/api/schema/)",
        f"  Django admin:       {base}/admin/",
    ]
    for demo in demos:
        if demo.chouette is not None:
            session = demo.chouette
            lines.append(f"  {session.name} (chouette): {base}{reverse('chouette:session', args=[session.pk])}")
            lines.append(f"    the table's link: {base}{reverse('chouette:table', args=[session.table_key])}")
            lines.append(f"    the director's view: {base}{reverse('chouette:manage', args=[session.pk])}")
            continue
        lines.append(f"  {demo.tournament.name}: {base}{demo.tournament.get_absolute_url()}")
        slug = demo.tournament.slug
        lines.append(f"    projector view:    {base}/t/{slug}/projector/")
        lines.append(f"    player slips (QR): {base}/director/t/{slug}/slips/")
        lines.append(f"    printouts:         {base}/director/t/{slug}/print/   (the draw, pairings, result slips)")
        for who, what, path in demo.player_links:
            lines.append(f"    player link of {who} ({what}): {base}{path}")
    return "\n".join(lines)
