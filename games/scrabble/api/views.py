"""The Scrabble score sheet through the API: the same services as the pages."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from games.scrabble import services
from games.scrabble.api import serializers as s
from games.scrabble.game import TurnLine
from games.scrabble.sheet import GameView, match_view
from tournaments.api.views import actor_of, match_of, valid


def line_data(line: TurnLine) -> dict[str, Any]:
    return {
        "number": line.number,
        "true_score": line.true_score,
        "score": line.score,
        "void": line.void,
        "corrected": line.corrected,
        "bonus": line.bonus,
        "words": [{"word": w.word, "score": w.score} for w in line.move.words] if line.move else [],
        "bingo": bool(line.move and line.move.bingo),
        "bag_after": line.bag_after,
        "racks_after": list(line.racks_after),
        "totals_after": list(line.totals_after),
        "rule_breaks": list(line.rule_breaks),
        "protests": [
            {
                "kind": p.protest.kind.value,
                "word": p.protest.word,
                "verdict": p.verdict.value,
                "crosses": list(p.crosses),
            }
            for p in line.protests
        ],
    }


def game_data(view: GameView) -> dict[str, Any]:
    state = view.state
    return {
        **s.GameSerializer(view.game).data,
        "state": {
            "scores": list(state.scores),
            "crosses": list(state.crosses),
            "forced_passes_due": list(state.forced_passes_due),
            "bag": state.bag,
            "racks": list(state.racks),
            "on_turn": None if state.ended else services.INDEX_SIDE[state.on_turn],
            "scoreless_run": state.scoreless_run,
            "ended": state.ended,
            "went_out": None if state.went_out is None else services.INDEX_SIDE[state.went_out],
            "adjustments": list(state.adjustments) if state.adjustments else None,
            "final_scores": list(state.final_scores) if state.final_scores else None,
            "winner": None if state.winner is None else services.INDEX_SIDE[state.winner],
            "draw": state.draw,
        },
        "turns": [{**s.TurnSerializer(turn.row).data, "derived": line_data(turn.line)} for turn in view.turns],
    }


def sheet_response(match, code=status.HTTP_200_OK) -> Response:
    view = match_view(match)
    state = view.state
    return Response(
        {
            "match": {
                "best_of": state.best_of,
                "wins_a": state.wins_a,
                "wins_b": state.wins_b,
                "spread": state.spread,
                "over": state.over,
                "winner": state.winner,
            },
            "games": [game_data(g) for g in view.games],
        },
        status=code,
    )


class SheetView(APIView):
    @extend_schema(responses=OpenApiTypes.OBJECT, summary="A Scrabble match's games, turns and derived state")
    def get(self, request, match_id: int):
        return sheet_response(match_of(request, match_id, services.GAME_TYPE))


class TurnsView(APIView):
    @extend_schema(
        request=s.TurnInputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        summary="Enter a turn (the player on turn, or a director)",
        description=s.TURN_HELP,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        services.record_turn(actor_of(request), match.pk, valid(s.TurnInputSerializer, request))
        return sheet_response(match_of(request, match_id, services.GAME_TYPE), status.HTTP_201_CREATED)


class PreviewView(APIView):
    @extend_schema(
        request=s.TurnInputSerializer,
        responses=OpenApiTypes.OBJECT,
        summary="What a turn would score and the words it forms, without entering it",
        description=s.TURN_HELP,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        line = services.preview_turn(actor_of(request), match.pk, valid(s.TurnInputSerializer, request))
        return Response(line_data(line))


class UndoLastTurnView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, summary="Director: undo the last turn")
    def post(self, request, match_id: int):
        match = match_of(request, match_id, services.GAME_TYPE)
        services.undo_last_turn(
            actor_of(request), match.pk, str(request.data.get("reason", "")) if hasattr(request.data, "get") else ""
        )
        return sheet_response(match_of(request, match_id, services.GAME_TYPE))


class AcceptView(APIView):
    @extend_schema(request=None, responses=s.TurnSerializer, summary="Accept the opponent's last turn")
    def post(self, request, turn_id: int):
        return Response(s.TurnSerializer(services.accept_turn(actor_of(request), turn_id)).data)


class ProtestView(APIView):
    @extend_schema(
        request=s.ProtestInputSerializer,
        responses={201: s.ProtestSerializer},
        summary="Protest the opponent's last turn (before accepting it)",
    )
    def post(self, request, turn_id: int):
        data = valid(s.ProtestInputSerializer, request)
        protest = services.raise_protest(
            actor_of(request), turn_id, data["kind"], data.get("word", ""), data.get("protester")
        )
        return Response(s.ProtestSerializer(protest).data, status=status.HTTP_201_CREATED)


class VerdictView(APIView):
    @extend_schema(request=s.VerdictSerializer, responses=s.ProtestSerializer, summary="Director: judge a word protest")
    def post(self, request, protest_id: int):
        data = valid(s.VerdictSerializer, request)
        return Response(
            s.ProtestSerializer(services.decide_protest(actor_of(request), protest_id, data["verdict"])).data
        )


class EndRacksView(APIView):
    @extend_schema(
        request=s.EndRacksSerializer, responses=s.GameSerializer, summary="The racks left when the game ended"
    )
    def post(self, request, game_id: int):
        data = valid(s.EndRacksSerializer, request)
        return Response(s.GameSerializer(services.enter_end_racks(actor_of(request), game_id, data["racks"])).data)
