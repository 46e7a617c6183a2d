"""The chess mini-match through the API: the same services as the pages."""

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.chess import services
from games.chess.api import serializers as s
from games.chess.models import ChessGame
from games.chess.sheet import sheet_of, state_data
from tournaments.api.views import actor_of, match_of, valid


def sheet_response(match, code=status.HTTP_200_OK) -> Response:
    view = sheet_of(match)
    lots = services.colour_lots(match)
    state = {**state_data(view), "first_white": lots["first_game"], "armageddon_white": lots["armageddon"]}
    return Response({"state": state, "games": s.GameSerializer(view.games, many=True).data}, status=code)


def chess_match(request, match_id: int):
    return match_of(request, match_id, services.GAME_TYPE)


def game_data(request) -> tuple[dict, str]:
    data = valid(s.GameInputSerializer, request)
    return data, data.pop("note", "")


class MatchGamesView(APIView):
    @extend_schema(responses=s.SheetSerializer, summary="A chess mini-match: its games and derived state")
    def get(self, request, match_id: int):
        return sheet_response(chess_match(request, match_id))

    @extend_schema(
        request=s.GameInputSerializer,
        responses={201: s.SheetSerializer},
        summary="Enter a finished game (a player's is provisional, a director's final)",
        description=s.GAME_HELP,
    )
    def post(self, request, match_id: int):
        match = chess_match(request, match_id)
        data, note = game_data(request)
        services.record_game(actor_of(request), match.pk, data, note)
        return sheet_response(chess_match(request, match_id), status.HTTP_201_CREATED)


class CorrectLastGameView(APIView):
    @extend_schema(
        request=s.GameInputSerializer, responses=s.SheetSerializer, summary="Director: replace the last game"
    )
    def post(self, request, match_id: int):
        match = chess_match(request, match_id)
        data, note = game_data(request)
        services.correct_last_game(actor_of(request), match.pk, data, note)
        return sheet_response(chess_match(request, match_id))


class UndoLastGameView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.SheetSerializer, summary="Director: undo the last game")
    def post(self, request, match_id: int):
        match = chess_match(request, match_id)
        data = valid(s.ReasonSerializer, request)
        services.undo_last_game(actor_of(request), match.pk, data.get("reason", ""))
        return sheet_response(chess_match(request, match_id))


class ColoursView(APIView):
    @extend_schema(
        request=s.ColoursSerializer,
        responses=s.SheetSerializer,
        summary="Director: record White drawn by lot at the board (game 1 or Armageddon)",
    )
    def post(self, request, match_id: int):
        match = chess_match(request, match_id)
        data = valid(s.ColoursSerializer, request)
        services.draw_colours(actor_of(request), match.pk, data["purpose"], data["white"])
        return sheet_response(chess_match(request, match_id))


class DecideView(APIView):
    @extend_schema(
        request=s.DecideSerializer,
        responses=s.SheetSerializer,
        summary="Director: decide a match level after every stage (no Armageddon)",
    )
    def post(self, request, match_id: int):
        match = chess_match(request, match_id)
        data = valid(s.DecideSerializer, request)
        services.decide_level_match(actor_of(request), match.pk, data["winner"], data["reason"])
        return sheet_response(chess_match(request, match_id))


class ConfirmGameView(APIView):
    @extend_schema(request=None, responses=s.GameSerializer, summary="Confirm the opponent's game")
    def post(self, request, game_id: int):
        game = services.confirm_game(actor_of(request), game_id)
        return Response(s.GameSerializer(ChessGame.objects.get(pk=game.pk)).data)


class DisputeGameView(APIView):
    @extend_schema(request=s.ReasonSerializer, responses=s.GameSerializer, summary="Dispute the opponent's game")
    def post(self, request, game_id: int):
        data = valid(s.ReasonSerializer, request)
        game = services.dispute_game(actor_of(request), game_id, data.get("reason", ""))
        return Response(s.GameSerializer(game).data)


class FinalPositionView(APIView):
    @extend_schema(
        request=s.PositionSerializer,
        responses=s.GameSerializer,
        summary="The final position of a game lost on time: a draw if the opponent cannot checkmate",
    )
    def post(self, request, game_id: int):
        data = valid(s.PositionSerializer, request)
        game = services.enter_final_position(actor_of(request), game_id, data["fen"])
        return Response(s.GameSerializer(game).data, status=status.HTTP_201_CREATED)
