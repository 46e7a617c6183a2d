"""The backgammon score sheet through the API: the same services as the pages."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.backgammon import services
from games.backgammon.api import serializers as s
from games.backgammon.models import BackgammonGame
from games.backgammon.sheet import sheet_of, state_data
from tournaments.api.views import actor_of, match_of, valid


def sheet_response(match, code=status.HTTP_200_OK) -> Response:
    view = sheet_of(match)
    return Response({"state": state_data(view), "games": s.GameSerializer(view.games, many=True).data}, status=code)


class MatchGamesView(APIView):
    @extend_schema(responses=s.SheetSerializer, summary="A backgammon match's games and derived state")
    def get(self, request, match_id: int):
        return sheet_response(match_of(request, match_id, services.GAME_TYPE))

    @extend_schema(
        request=s.GameInputSerializer,
        responses={201: s.SheetSerializer},
        summary="Enter a finished game (a player's is provisional, a director's final)",
        description=s.GAME_HELP,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        data = valid(s.GameInputSerializer, request)
        note = data.pop("note", "")
        if data.get("cube_history") is None:
            data.pop("cube_history", None)
        services.record_game(actor_of(request), match.pk, data, note)
        return sheet_response(match_of(request, match_id, services.GAME_TYPE), status.HTTP_201_CREATED)


class CorrectLastGameView(APIView):
    @extend_schema(
        request=s.GameInputSerializer,
        responses=s.SheetSerializer,
        summary="Director: replace the last game",
        description=s.GAME_HELP,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        data = valid(s.GameInputSerializer, request)
        note = data.pop("note", "")
        if data.get("cube_history") is None:
            data.pop("cube_history", None)
        services.correct_last_game(actor_of(request), match.pk, data, note)
        return sheet_response(match_of(request, match_id, services.GAME_TYPE))


class UndoLastGameView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.SheetSerializer, summary="Director: undo the last game")
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        data = valid(s.ReasonSerializer, request)
        services.undo_last_game(actor_of(request), match.pk, data.get("reason", ""))
        return sheet_response(match_of(request, match_id, services.GAME_TYPE))


class ConfirmGameView(APIView):
    @extend_schema(request=None, responses=s.GameSerializer, summary="Confirm the opponent's game")
    def post(self, request, game_id: int):
        game = services.confirm_game(actor_of(request), game_id)
        return Response(s.GameSerializer(BackgammonGame.objects.get(pk=game.pk)).data)


class DisputeGameView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.GameSerializer, summary="Dispute the opponent's game")
    def post(self, request, game_id: int):
        data = valid(s.ReasonSerializer, request)
        game = services.dispute_game(actor_of(request), game_id, data.get("reason", ""))
        return Response(s.GameSerializer(game).data)
