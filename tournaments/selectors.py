"""Reading tournaments for the pages and the API, in a fixed number of queries.

Every function here costs the same handful of SQL queries whether the tournament has
16 players or 1024: rows are fetched in bulk and joined in Python.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Prefetch, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games.registry import LiveState
from tournaments import access, rows
from tournaments.access import Actor
from tournaments.bracket import Bracket, BracketMatch, DecidedBy, Slot
from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, Route
from tournaments.labels import match_label, match_labeller, round_name, rounds_in_flight
from tournaments.models import AuditEntry, Entry, Match, ResultSubmission, Round, Tournament
from tournaments.standings import Standings, knockout_standings
from tournaments.tables import MatchPlace, number_tables, session_of, session_rounds

FLIGHTS = (MAIN, THIRD_PLACE, CONSOLATION)


def public_tournaments() -> QuerySet[Tournament]:
    return (
        Tournament.objects.exclude(status=Tournament.Status.DRAFT)
        .annotate(entry_count=Count("entries", filter=Q(entries__withdrawn_at__isnull=True)))
        .order_by("-starts_on", "-created_at")
    )


def directed_tournaments(actor: Actor) -> QuerySet[Tournament]:
    qs = Tournament.objects.annotate(entry_count=Count("entries"))
    if actor.user is not None and actor.user.is_superuser:
        return qs.order_by("-created_at")
    return qs.filter(directors=actor.user).order_by("-created_at") if actor.user else qs.none()


def tournament_for(actor: Actor, slug: str) -> Tournament:
    """The tournament at this address, if the actor may see it (drafts: directors only)."""
    tournament = Tournament.objects.select_related("page_version").filter(slug=slug).first()
    if tournament is None or not access.can_view_tournament(actor, tournament):
        raise Http404(_("No such tournament."))
    return tournament


def entries_of(tournament: Tournament) -> list[Entry]:
    return list(tournament.entries.order_by("bracket_seed", "seed", "name"))


# What the public pages and the bracket show of an entry (never its private key), and
# of a result waiting for confirmation.
PUBLIC_ENTRY_FIELDS = (
    *("id", "tournament_id", "name", "rating", "club", "country", "seed", "bracket_seed", "withdrawn_at"),
)
MATCH_FIELDS = rows.attnames(Match)
MATCH_ORDER = ("flight", "round_number", "position")  # as ``Match.Meta.ordering``
ROUND_FIELDS = rows.attnames(Round)
ROUND_ORDER = ("flight", "number")  # as ``Round.Meta.ordering``
OPEN_RESULT_FIELDS = ("id", "match_id", "status", "summary", "winner_side", "submitted_at", "confirm_deadline")


def public_entries_of(tournament: Tournament) -> list[Entry]:
    """The entries with only the columns the pages show."""
    return rows.instances(
        Entry,
        PUBLIC_ENTRY_FIELDS,
        rows.fetch(Entry, PUBLIC_ENTRY_FIELDS, "{tournament_id} = %s", [tournament.pk], ENTRY_ORDER),
    )


ENTRY_ORDER = ("bracket_seed", "seed", "name")  # as ``entries_of``


# --- The bracket ---------------------------------------------------------------------
@dataclass
class SideView:
    entry: Entry | None
    bye: bool
    winner: bool = False
    loser: bool = False
    score: float | None = None

    @property
    def to_be_decided(self) -> bool:
        return self.entry is None and not self.bye


@dataclass
class MatchView:
    match: Match
    a: SideView
    b: SideView
    open_result: ResultSubmission | None = None
    live: LiveState | None = None  # the score sheet's state of a match being played

    @property
    def provisional(self) -> bool:
        return self.open_result is not None

    @property
    def label(self) -> str:
        return describe_match(self.match)


@dataclass
class RoundView:
    round: Round
    name: str
    settings_text: str
    matches: list[MatchView] = field(default_factory=list)


@dataclass
class FlightView:
    flight: str
    rounds: list[RoundView] = field(default_factory=list)


@dataclass
class TournamentView:
    tournament: Tournament
    entries: list[Entry]
    flights: list[FlightView]
    bracket: Bracket | None
    matches: dict[int, MatchView]
    standings: Standings | None

    @property
    def entry_by_id(self) -> dict[int, Entry]:
        return {e.pk: e for e in self.entries}

    def flight(self, name: str) -> FlightView | None:
        return next((f for f in self.flights if f.flight == name), None)

    @property
    def main(self) -> FlightView | None:
        return self.flight(MAIN)

    @property
    def third_place(self) -> FlightView | None:
        return self.flight(THIRD_PLACE)

    @property
    def consolation(self) -> FlightView | None:
        return self.flight(CONSOLATION)

    def standing_rows(self) -> list[tuple[str, Entry, str, bool]]:
        """(place, entry, round name, won last match) rows, best first."""
        if self.standings is None:
            return []
        by_id = self.entry_by_id
        size = self.tournament.bracket_size
        rows = []
        for placing in self.standings.placings:
            key = placing.finished_in
            finished = round_name(key.flight, key.round, size)
            for entry_id in placing.entries:
                rows.append((placing.label, by_id[entry_id], finished, placing.won_last_match))
        return rows

    def still_playing(self) -> list[Entry]:
        if self.standings is None:
            return []
        by_id = self.entry_by_id
        return [by_id[e] for e in self.standings.still_playing]


def tournament_view(tournament: Tournament) -> TournamentView:
    """Everything the tournament page shows: 4 queries whatever the size."""
    entries = public_entries_of(tournament)
    by_id = {e.pk: e for e in entries}
    where = "{tournament_id} = %s"
    rounds = rows.instances(Round, ROUND_FIELDS, rows.fetch(Round, ROUND_FIELDS, where, [tournament.pk], ROUND_ORDER))
    round_by_id = {r.pk: r for r in rounds}
    matches = rows.instances(Match, MATCH_FIELDS, rows.fetch(Match, MATCH_FIELDS, where, [tournament.pk], MATCH_ORDER))
    open_results = {
        s.match_id: s
        for s in ResultSubmission.objects.filter(match__tournament=tournament, status__in=ResultSubmission.OPEN).only(
            *OPEN_RESULT_FIELDS
        )
    }
    game = tournament.game
    size = tournament.bracket_size
    round_views: dict[int, RoundView] = {
        r.pk: RoundView(
            round=r,
            name=round_name(r.flight, r.number, size),
            settings_text=str(game.describe_round_settings(r.settings)),
        )
        for r in rounds
    }
    match_views: dict[int, MatchView] = {}
    # The related rows are joined here from the bulk queries; the relations' caches are
    # filled directly (the descriptors' checks cost as much as the queries at 1024 entries).
    relations = [(Match._meta.get_field(name), name) for name in ("entry_a", "entry_b", "winner")]
    to_tournament, to_round = Match._meta.get_field("tournament"), Match._meta.get_field("round")
    for m in matches:
        for relation, name in relations:
            relation.set_cached_value(m, by_id.get(getattr(m, f"{name}_id")))
        to_tournament.set_cached_value(m, tournament)
        to_round.set_cached_value(m, round_by_id[m.round_id])
        view = MatchView(
            match=m,
            a=SideView(m.entry_a, m.bye_a, m.winner_side == "a", m.winner_side == "b", m.score_a),
            b=SideView(m.entry_b, m.bye_b, m.winner_side == "b", m.winner_side == "a", m.score_b),
            open_result=open_results.get(m.pk),
        )
        match_views[m.pk] = view
        round_views[m.round_id].matches.append(view)
    if game.sheet is not None:
        for match_id, live in game.sheet.live_states(tournament, matches).items():
            view = match_views[match_id]
            view.live = live
            if not view.match.decided_by and live.data.get("games_played"):
                view.a.score, view.b.score = live.score_a, live.score_b
    flights = []
    for flight in FLIGHTS:
        flight_rounds = sorted(
            (rv for rv in round_views.values() if rv.round.flight == flight), key=lambda rv: rv.round.number
        )
        if flight_rounds:
            for rv in flight_rounds:
                rv.matches.sort(key=lambda mv: mv.match.position)
            flights.append(FlightView(flight=flight, rounds=flight_rounds))
    bracket = standings = None
    if matches:
        bracket = bracket_from_rows(matches, [e.pk for e in entries if e.withdrawn])
        drawn = [e.pk for e in entries if e.bracket_seed is not None]
        standings = knockout_standings(bracket, drawn)
    return TournamentView(
        tournament=tournament,
        entries=entries,
        flights=flights,
        bracket=bracket,
        matches=match_views,
        standings=standings,
    )


# --- Tables and the venue ---------------------------------------------------------------
@dataclass
class TableRow:
    table: str  # the match's own table if the director set one, else its number (tournaments.tables)
    match: MatchView


def tables_of(view: TournamentView) -> dict[int, str]:
    """Every playable match's table (``tournaments.tables``): the rounds played at the
    same time share one numbering."""
    places = (
        MatchPlace(
            mv.match.pk, mv.match.flight, mv.match.round_number, mv.match.position, not mv.match.is_bye, mv.match.table
        )
        for flight in view.flights
        for round_view in flight.rounds
        for mv in round_view.matches
    )
    return number_tables(places, rounds_in_flight(view.tournament.bracket_size, MAIN))


def table_of(match: Match) -> str:
    """One match's table: reads the matches of the rounds played beside it (one query)."""
    if match.is_bye:
        return ""
    main_rounds = rounds_in_flight(match.tournament.bracket_size, MAIN)
    session = session_of(match.flight, match.round_number, main_rounds)
    together = Q()
    for flight, number in session_rounds(session, main_rounds):
        together |= Q(flight=flight, round_number=number)
    places = (
        MatchPlace(pk, flight, number, position, not (bye_a or bye_b), table)
        for pk, flight, number, position, bye_a, bye_b, table in Match.objects.filter(
            together, tournament_id=match.tournament_id
        ).values_list("pk", "flight", "round_number", "position", "bye_a", "bye_b", "table")
    )
    return number_tables(places, main_rounds).get(match.pk, "")


def sessions(view: TournamentView) -> list[list[RoundView]]:
    """The rounds played at the same time (``tournaments.tables``), session by session:
    each main round, with the match for third place beside the final and the
    consolation's round before it."""
    main_rounds = rounds_in_flight(view.tournament.bracket_size, MAIN)
    by_key = {(rv.round.flight, rv.round.number): rv for flight in view.flights for rv in flight.rounds}
    return [
        [by_key[key] for key in session_rounds(number, main_rounds) if key in by_key]
        for number in range(1, main_rounds + 1)
    ]


def session_with(view: TournamentView, round_view: RoundView) -> list[RoundView]:
    """The session a round is played in."""
    return next(rounds for rounds in sessions(view) if round_view in rounds)


def round_tables(round_view: RoundView, tables: dict[int, str]) -> list[TableRow]:
    """A round's playable matches with their tables, in bracket order."""
    return [TableRow(tables[mv.match.pk], mv) for mv in round_view.matches if mv.match.pk in tables]


def running_matches(view: TournamentView) -> list[TableRow]:
    """The matches being played now (both players known, not decided) with their
    tables, in the order of the tables (the earliest session first): what the venue's
    screen cycles through."""
    return [
        TableRow(table, mv)
        for match_id, table in tables_of(view).items()
        if (mv := view.matches[match_id]).match.entry_a_id and mv.match.entry_b_id and not mv.match.decided_by
    ]


def round_view_of(view: TournamentView, round_id: int) -> RoundView:
    for flight in view.flights:
        for round_view in flight.rounds:
            if round_view.round.pk == round_id:
                return round_view
    raise Http404(_("No such round."))


def latest_results(view: TournamentView, count: int) -> list[MatchView]:
    """The last ``count`` matches decided at the table or by the director (no byes), the
    latest first."""
    not_played = ("", Match.DecidedBy.BYE, Match.DecidedBy.VOID)
    decided = [mv for mv in view.matches.values() if mv.match.decided_at and mv.match.decided_by not in not_played]
    decided.sort(key=lambda mv: mv.match.decided_at, reverse=True)
    return decided[:count]


def last_rounds(flight: FlightView, most_matches: int) -> FlightView:
    """The flight from its first round of at most ``most_matches`` matches on (the
    whole flight if it is that small)."""
    rounds = flight.rounds
    first = next((i for i, rv in enumerate(rounds) if len(rv.matches) <= most_matches), 0)
    return FlightView(flight=flight.flight, rounds=rounds[first:])


def bracket_sections(flight: FlightView, first_matches: int) -> list[FlightView]:
    """A flight in parts that each fit a page or a screen. A flight whose first round has
    at most ``first_matches`` matches is one part. A bigger one is cut into parts of
    ``first_matches`` first-round matches, each with the rounds they lead to down to its
    one match, and a last part from the round of ``first_matches`` players on (the round
    that joins them)."""
    rounds = flight.rounds
    first = len(rounds[0].matches) if rounds else 0
    halving = all(len(b.matches) * 2 == len(a.matches) for a, b in zip(rounds, rounds[1:], strict=False))
    if first <= first_matches or first % first_matches or not halving:
        return [flight]
    parts = []
    for part in range(first // first_matches):
        part_rounds = []
        for depth, round_view in enumerate(rounds):
            size = first_matches >> depth
            if size == 0:
                break
            matches = round_view.matches[part * size : (part + 1) * size]
            part_rounds.append(RoundView(round_view.round, round_view.name, round_view.settings_text, matches))
        parts.append(FlightView(flight=flight.flight, rounds=part_rounds))
    return [*parts, last_rounds(flight, first_matches // 2)]


def bracket_from_rows(rows: list[Match], withdrawn: list[int], bracket_size: int | None = None) -> Bracket:
    """The pure bracket of these match rows (labels for messages when the size is given)."""
    key_of = {m.pk: m.key for m in rows}
    label = match_labeller(bracket_size) if bracket_size else None
    return Bracket(
        (
            BracketMatch(
                key=m.key,
                a=Slot(m.entry_a_id, m.bye_a),
                b=Slot(m.entry_b_id, m.bye_b),
                winner_to=Route(key_of[m.winner_to_id], m.winner_to_slot) if m.winner_to_id else None,
                loser_to=Route(key_of[m.loser_to_id], m.loser_to_slot) if m.loser_to_id else None,
                loser_only_from=m.loser_only_from or None,
                winner=m.winner_side or None,
                decided_by=DecidedBy(m.decided_by) if m.decided_by else None,
                started=m.started_at is not None,
                label=label(m.flight, m.round_number, m.position) if label else "",
            )
            for m in rows
        ),
        withdrawn,
    )


# --- One match -----------------------------------------------------------------------
def match_for(actor: Actor, tournament: Tournament, match_id: int) -> Match:
    match = (
        Match.objects.select_related("entry_a", "entry_b", "winner", "round")
        .filter(pk=match_id, tournament=tournament)
        .first()
    )
    if match is None:
        raise Http404(_("No such match."))
    match.tournament = tournament
    return match


def submissions_of(match: Match) -> list[ResultSubmission]:
    return list(
        match.submissions.select_related(
            "submitted_by_entry", "submitted_by_user", "confirmed_by_entry", "confirmed_by_user"
        ).order_by("-version")
    )


def open_submission(match: Match) -> ResultSubmission | None:
    return match.submissions.filter(status__in=ResultSubmission.OPEN).select_related("submitted_by_entry").first()


def describe_match(match: Match) -> str:
    return match_label(match.flight, match.round_number, match.position, match.tournament.bracket_size)


# --- A player's own page ---------------------------------------------------------------
def entry_by_key(key: str) -> Entry:
    entry = Entry.objects.select_related("tournament").filter(private_key=key).first()
    if entry is None:
        raise Http404(_("No such player link."))
    return entry


def matches_of_entry(entry: Entry) -> list[Match]:
    matches = list(
        Match.objects.filter(tournament=entry.tournament)
        .filter(Q(entry_a=entry) | Q(entry_b=entry))
        .select_related("entry_a", "entry_b", "winner", "round")
        .prefetch_related(
            Prefetch(
                "submissions",
                queryset=ResultSubmission.objects.filter(status__in=ResultSubmission.OPEN),
                to_attr="open_results",
            )
        )
        .order_by("flight", "round_number")
    )
    for m in matches:
        m.tournament = entry.tournament
        m.round_label = round_name(m.flight, m.round_number, entry.tournament.bracket_size)
    return matches


def current_match(entry: Entry, matches: list[Match]) -> Match | None:
    """The match the player has to play (or confirm) now."""
    for m in matches:
        if not m.decided_by and m.entry_a_id and m.entry_b_id:
            return m
    return None


# --- The director's views ------------------------------------------------------------
def audit_log(tournament: Tournament, limit: int = 500) -> list[AuditEntry]:
    return list(tournament.audit_entries.select_related("actor_user", "actor_entry", "match")[:limit])


def pending_results(tournament: Tournament) -> list[ResultSubmission]:
    return list(
        ResultSubmission.objects.filter(match__tournament=tournament, status__in=ResultSubmission.OPEN)
        .select_related("match", "match__entry_a", "match__entry_b", "submitted_by_entry")
        .order_by("status", "submitted_at")
    )
