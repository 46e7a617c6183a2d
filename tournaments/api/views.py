"""The REST API: each view resolves who is asking, calls one service or selector, and
returns what it gives. Permissions are checked by ``tournaments.access`` below."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import access, selectors, services
from tournaments.access import Actor
from tournaments.api import serializers as s
from tournaments.errors import DomainError
from tournaments.models import Entry, Match, ResultSubmission, Round


def actor_of(request: Request) -> Actor:
    entry = request.auth if isinstance(request.auth, Entry) else None
    return access.actor_for(request.user, entry)


def valid(serializer_class, request: Request, partial: bool = False) -> dict:
    serializer = serializer_class(data=request.data, partial=partial)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def tournament_of(request: Request, slug: str):
    return selectors.tournament_for(actor_of(request), slug)


class TournamentListView(APIView):
    @extend_schema(responses=s.TournamentSerializer(many=True), summary="Public tournaments")
    def get(self, request):
        return Response(s.TournamentSerializer(selectors.public_tournaments(), many=True).data)

    @extend_schema(
        request=s.TournamentWriteSerializer, responses={201: s.TournamentSerializer}, summary="Create a tournament"
    )
    def post(self, request):
        tournament = services.create_tournament(actor_of(request), **valid(s.TournamentWriteSerializer, request))
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailView(APIView):
    @extend_schema(responses=s.TournamentSerializer)
    def get(self, request, slug: str):
        return Response(s.TournamentSerializer(tournament_of(request, slug)).data)

    @extend_schema(request=s.TournamentWriteSerializer, responses=s.TournamentSerializer, summary="Change settings")
    def patch(self, request, slug: str):
        tournament = tournament_of(request, slug)
        data = valid(s.TournamentWriteSerializer, request, partial=True)
        tournament = services.update_tournament(actor_of(request), tournament.pk, **data)
        return Response(s.TournamentSerializer(tournament).data)


class OpenRegistrationView(APIView):
    @extend_schema(request=None, responses=s.TournamentSerializer, summary="Draft -> registration (public)")
    def post(self, request, slug: str):
        tournament = services.open_registration(actor_of(request), tournament_of(request, slug).pk)
        return Response(s.TournamentSerializer(tournament).data)


class DrawView(APIView):
    @extend_schema(request=s.DrawSerializer, responses={201: s.TournamentSerializer}, summary="Make the draw")
    def post(self, request, slug: str):
        data = valid(s.DrawSerializer, request)
        tournament = services.make_draw(actor_of(request), tournament_of(request, slug).pk, data.get("random_seed"))
        return Response(s.TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=s.TournamentSerializer, summary="Cancel the draw (no match started)")
    def delete(self, request, slug: str):
        tournament = services.cancel_draw(actor_of(request), tournament_of(request, slug).pk)
        return Response(s.TournamentSerializer(tournament).data)


class EntryListView(APIView):
    @extend_schema(responses=s.EntrySerializer(many=True), summary="Players (directors also get private keys)")
    def get(self, request, slug: str):
        actor = actor_of(request)
        tournament = tournament_of(request, slug)
        serializer = s.EntryPrivateSerializer if access.is_director(actor, tournament) else s.EntrySerializer
        return Response(serializer(selectors.entries_of(tournament), many=True, context={"request": request}).data)

    @extend_schema(request=s.EntryWriteSerializer, responses={201: s.EntryPrivateSerializer}, summary="Add a player")
    def post(self, request, slug: str):
        tournament = tournament_of(request, slug)
        data = valid(s.EntryWriteSerializer, request)
        entry = services.add_entry(actor_of(request), tournament.pk, **data)
        return Response(
            s.EntryPrivateSerializer(entry, context={"request": request}).data, status=status.HTTP_201_CREATED
        )


class EntryImportView(APIView):
    @extend_schema(
        request=s.EntryImportSerializer,
        responses={201: s.EntryPrivateSerializer(many=True)},
        summary="Import players from CSV (all or nothing)",
    )
    def post(self, request, slug: str):
        tournament = tournament_of(request, slug)
        data = valid(s.EntryImportSerializer, request)
        text = data.get("csv") or ""
        if data.get("file") is not None:
            raw = data["file"].read()
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise DomainError(_("The file is not UTF-8 text; save it as 'CSV UTF-8'."), field="file") from None
        entries = services.import_entries(actor_of(request), tournament.pk, text)
        return Response(
            s.EntryPrivateSerializer(entries, many=True, context={"request": request}).data,
            status=status.HTTP_201_CREATED,
        )


class SeedsView(APIView):
    @extend_schema(
        request=s.SeedsSerializer, responses=s.EntryPrivateSerializer(many=True), summary="Set many seeds at once"
    )
    def post(self, request, slug: str):
        tournament = tournament_of(request, slug)
        data = valid(s.SeedsSerializer, request)
        entries = services.set_seeds(actor_of(request), tournament.pk, data["seeds"])
        return Response(s.EntryPrivateSerializer(entries, many=True, context={"request": request}).data)


class EntryDetailView(APIView):
    def _entry(self, request, entry_id: int) -> Entry:
        entry = get_object_or_404(Entry.objects.select_related("tournament"), pk=entry_id)
        if not access.can_view_tournament(actor_of(request), entry.tournament):
            raise PermissionDenied(_("You may not see this player."))
        return entry

    @extend_schema(responses=s.EntrySerializer)
    def get(self, request, entry_id: int):
        entry = self._entry(request, entry_id)
        actor = actor_of(request)
        serializer = s.EntryPrivateSerializer if access.can_view_entry_private(actor, entry) else s.EntrySerializer
        return Response(serializer(entry, context={"request": request}).data)

    @extend_schema(request=s.EntryWriteSerializer, responses=s.EntryPrivateSerializer, summary="Edit a player")
    def patch(self, request, entry_id: int):
        entry = self._entry(request, entry_id)
        data = valid(s.EntryWriteSerializer, request, partial=True)
        entry = services.update_entry(actor_of(request), entry.pk, **data)
        return Response(s.EntryPrivateSerializer(entry, context={"request": request}).data)

    @extend_schema(request=None, responses={204: None}, summary="Remove a player (before the draw)")
    def delete(self, request, entry_id: int):
        services.remove_entry(actor_of(request), self._entry(request, entry_id).pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class EntryWithdrawView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.EntrySerializer, summary="Withdraw a player (walkovers)")
    def post(self, request, entry_id: int):
        data = valid(s.ReasonSerializer, request)
        entry = services.withdraw_entry(actor_of(request), entry_id, data.get("reason", ""))
        return Response(s.EntrySerializer(entry).data)


class BracketView(APIView):
    @extend_schema(responses=s.RoundSerializer(many=True), summary="Every round with its matches")
    def get(self, request, slug: str):
        view = selectors.tournament_view(tournament_of(request, slug))
        matches_by_round: dict[int, list[Match]] = {}
        open_results = {}
        live_states = {}
        for match_view in view.matches.values():
            matches_by_round.setdefault(match_view.match.round_id, []).append(match_view.match)
            if match_view.open_result is not None:
                open_results[match_view.match.pk] = match_view.open_result
            if match_view.live is not None:
                live_states[match_view.match.pk] = match_view.live
        rounds = [round_view.round for flight in view.flights for round_view in flight.rounds]
        for round_ in rounds:
            round_.tournament = view.tournament
        context = {
            "matches_by_round": matches_by_round,
            "open_results": open_results,
            "live_states": live_states,
            "request": request,
        }
        return Response(s.RoundSerializer(rounds, many=True, context=context).data)


class StandingsView(APIView):
    @extend_schema(responses=s.StandingsSerializer, summary="Standings so far (final once the event is over)")
    def get(self, request, slug: str):
        view = selectors.tournament_view(tournament_of(request, slug))
        consolation_winner = None
        if view.standings and view.standings.consolation_winner:
            consolation_winner = view.entry_by_id[view.standings.consolation_winner]
        data = {
            "final": bool(view.standings and view.standings.final),
            "rows": [
                {"place": place, "entry": entry, "finished_in": finished, "won_last_match": won}
                for place, entry, finished, won in view.standing_rows()
            ],
            "still_playing": view.still_playing(),
            "consolation_winner": consolation_winner,
        }
        return Response(s.StandingsSerializer(data).data)


class RoundDetailView(APIView):
    @extend_schema(request=s.RoundWriteSerializer, responses=s.RoundSerializer, summary="Change a round's settings")
    def patch(self, request, round_id: int):
        round_ = get_object_or_404(Round, pk=round_id)
        data = valid(s.RoundWriteSerializer, request)
        round_ = services.update_round_settings(actor_of(request), round_.pk, data["settings"])
        return Response(s.RoundSerializer(round_, context={"matches_by_round": {}}).data)


def match_of(request: Request, match_id: int, game_type: str | None = None) -> Match:
    """The match the request names, if the requester may see it (else 404); with
    ``game_type``, only a match of that game (a game's own endpoints, e.g. a Scrabble
    sheet, have nothing to say about a backgammon match)."""
    match = get_object_or_404(
        Match.objects.select_related("tournament", "entry_a", "entry_b", "winner", "round"), pk=match_id
    )
    if not access.can_view_tournament(actor_of(request), match.tournament):
        raise Http404(_("No such match."))
    if game_type is not None and match.tournament.game_type != game_type:
        raise Http404(
            _("Match %(match)s is a %(game)s match; this address is for %(wanted)s matches only.")
            % {"match": match_id, "game": match.tournament.game_type, "wanted": game_type}
        )
    return match


class MatchDetailView(APIView):
    @extend_schema(responses=s.MatchSerializer)
    def get(self, request, match_id: int):
        return Response(s.MatchSerializer(match_of(request, match_id)).data)


class MatchResultsView(APIView):
    @extend_schema(
        responses=s.SubmissionSerializer(many=True),
        summary="Result versions (the players and directors see all; the public the confirmed and open ones)",
    )
    def get(self, request, match_id: int):
        match = match_of(request, match_id)
        actor = actor_of(request)
        submissions = selectors.submissions_of(match)
        if not (access.is_director(actor, match.tournament) or access.playing_entry(actor, match)):
            submissions = [
                sub for sub in submissions if sub.status in (ResultSubmission.Status.CONFIRMED, *ResultSubmission.OPEN)
            ]
        return Response(s.SubmissionSerializer(submissions, many=True).data)

    @extend_schema(
        request=s.ResultInputSerializer,
        responses={201: s.SubmissionSerializer},
        summary="Enter a result (a player's is provisional, a director's final)",
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.ResultInputSerializer, request)
        submission = services.submit_result(
            actor_of(request), match.pk, data["result"], data.get("winner"), data.get("note", "")
        )
        return Response(s.SubmissionSerializer(submission).data, status=status.HTTP_201_CREATED)


class ResultConfirmView(APIView):
    @extend_schema(request=None, responses=s.SubmissionSerializer, summary="Confirm the opponent's result")
    def post(self, request, submission_id: int):
        submission = services.confirm_result(actor_of(request), submission_id)
        return Response(s.SubmissionSerializer(submission).data)


class ResultDisputeView(APIView):
    @extend_schema(
        request=s.ReasonSerializer, responses=s.SubmissionSerializer, summary="Dispute the opponent's result"
    )
    def post(self, request, submission_id: int):
        data = valid(s.ReasonSerializer, request)
        submission = services.dispute_result(actor_of(request), submission_id, data.get("reason", ""))
        return Response(s.SubmissionSerializer(submission).data)


class MatchWalkoverView(APIView):
    @extend_schema(request=s.WalkoverSerializer, responses={201: s.SubmissionSerializer}, summary="Award a walkover")
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.WalkoverSerializer, request)
        submission = services.record_walkover(actor_of(request), match.pk, data["winner"], data.get("note", ""))
        return Response(s.SubmissionSerializer(submission).data, status=status.HTTP_201_CREATED)


class MatchUndoView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.MatchSerializer, summary="Undo a match's result")
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.ReasonSerializer, request)
        services.undo_result(actor_of(request), match.pk, data.get("reason", ""))
        return Response(s.MatchSerializer(match_of(request, match_id)).data)


class AuditLogView(APIView):
    @extend_schema(responses=s.AuditEntrySerializer(many=True), summary="The audit log (directors)")
    def get(self, request, slug: str):
        tournament = tournament_of(request, slug)
        access.require_director(actor_of(request), tournament)
        return Response(s.AuditEntrySerializer(selectors.audit_log(tournament), many=True).data)


class MeView(APIView):
    @extend_schema(responses=s.MeSerializer, summary="The player of the private key: their entry and matches")
    def get(self, request):
        actor = actor_of(request)
        if actor.entry is None:
            raise PermissionDenied(_("Send your private key: 'Authorization: Entry <key>'."))
        entry = actor.entry
        data = {"entry": entry, "tournament": entry.tournament, "matches": selectors.matches_of_entry(entry)}
        return Response(s.MeSerializer(data).data)
