"""Chouette sessions through the API: the same services as the pages.

The session's director authenticates as a user (session or token). Whoever is at the
table sends the table's key in the ``X-Table-Key`` header (the key of the table's
``/chouette/table/<key>/`` link).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.backgammon import chouette_services as services
from games.backgammon.models import ChouetteSession
from tournaments.api.serializers import StrictSerializer
from tournaments.api.views import actor_of, valid

TABLE_KEY = OpenApiParameter(
    "X-Table-Key",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    required=False,
    description="The table's key (from its /chouette/table/<key>/ link); not needed by the session's director.",
)


class SessionInputSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200)
    players = serializers.ListField(child=serializers.CharField(max_length=100), min_length=3, max_length=12)
    stake_cents = serializers.IntegerField(min_value=1, required=False, default=100)
    currency = serializers.CharField(max_length=3, required=False, default="CZK")
    settings = serializers.DictField(required=False, default=dict)
    public = serializers.BooleanField(required=False, default=True)


class LineInputSerializer(StrictSerializer):
    order = serializers.ListField(child=serializers.CharField(), required=False)
    rolls = serializers.ListField(child=serializers.DictField(), required=False)
    roll = serializers.BooleanField(required=False, default=False)


class GameInputSerializer(StrictSerializer):
    board = serializers.DictField(required=False, allow_null=True)
    cubes = serializers.DictField(required=False, default=dict)
    takeover = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    automatic_doubles = serializers.IntegerField(required=False, default=0)
    box = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    captain = serializers.CharField(required=False, allow_null=True, allow_blank=True)


class PlayerInputSerializer(StrictSerializer):
    name = serializers.CharField(max_length=100)


def table_key(request: Request) -> str | None:
    return request.headers.get("X-Table-Key") or None


def session_of(request: Request, session_id: int) -> ChouetteSession:
    session = get_object_or_404(ChouetteSession, pk=session_id)
    if not (
        session.public
        or services.is_session_director(actor_of(request), session)
        or services.holds_table_key(session, table_key(request))
    ):
        raise Http404(_("No such chouette session."))
    return session


def session_data(session: ChouetteSession) -> dict[str, Any]:
    """A session as the API shows it: the line with roles, every game, the ledger."""
    state = services.replay(session)
    names = state.players
    settings = services.settings_of(session)
    roles = {}
    if state.line:
        roles = {state.line[0]: "box", state.line[1]: "captain"}
        if settings.box_partner and len(state.line) > 2:
            roles[state.line[2]] = "box_partner"
    data = {
        "id": session.pk,
        "name": session.name,
        "status": session.status,
        "stake_cents": session.stake_cents,
        "currency": session.currency,
        "settings": session.settings,
        "players": [{"id": pid, "name": name} for pid, name in names.items()],
        "line": [{"id": pid, "name": names[pid], "role": roles.get(pid, "team")} for pid in state.line],
        "games": [
            {
                "number": index,
                "event": row.pk,
                "box": line[0],
                "captain": line[1],
                "acting_captain": score.acting_captain,
                "box_won": score.box_won,
                "points": score.points,
                "facts": row.data,
            }
            for index, (row, score, line) in enumerate(state.games, start=1)
        ],
        "ledger": state.ledger,
        "totals": state.totals,
        "settlement": None,
    }
    if session.status == ChouetteSession.Status.CLOSED:
        data["settlement"] = [
            {"payer": p.payer, "payee": p.payee, "amount_cents": p.amount} for p in services.settlement(session, state)
        ]
    return data


def answer(session: ChouetteSession, code: int = status.HTTP_200_OK) -> Response:
    session.refresh_from_db()
    return Response(session_data(session), status=code)


class SessionListView(APIView):
    @extend_schema(operation_id="chouette_list", responses=OpenApiTypes.OBJECT, summary="Public chouette sessions")
    def get(self, request):
        sessions = ChouetteSession.objects.filter(public=True).order_by("-created_at")[:200]
        return Response(
            [{"id": s.pk, "name": s.name, "status": s.status, "games_played": s.games_played} for s in sessions]
        )

    @extend_schema(request=SessionInputSerializer, responses={201: OpenApiTypes.OBJECT}, summary="Open a session")
    def post(self, request):
        data = valid(SessionInputSerializer, request)
        session = services.create_session(actor_of(request), **data)
        return answer(session, status.HTTP_201_CREATED)


class SessionDetailView(APIView):
    @extend_schema(parameters=[TABLE_KEY], responses=OpenApiTypes.OBJECT, summary="A session: line, games, ledger")
    def get(self, request, session_id: int):
        return answer(session_of(request, session_id))


class LineView(APIView):
    @extend_schema(
        parameters=[TABLE_KEY],
        request=LineInputSerializer,
        responses=OpenApiTypes.OBJECT,
        summary="Set the line: the opening rolls, a fair roll by the server, or the director's order",
    )
    def post(self, request, session_id: int):
        session = session_of(request, session_id)
        data = valid(LineInputSerializer, request)
        services.set_line(
            actor_of(request),
            session.pk,
            table_key(request),
            order=data.get("order"),
            rolls=data.get("rolls"),
            roll=data.get("roll", False),
        )
        return answer(session)


class GamesView(APIView):
    @extend_schema(
        parameters=[TABLE_KEY],
        request=GameInputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        summary="Record a game",
        description=(
            "`board`: {winner: box|team, kind: single|gammon|backgammon, resigned}; `cubes`: {player id: "
            "{value, owner: box|member|null, dropped_by: box|member|null}} — a dropped double is recorded with the "
            "value offered; a member left out had an untouched cube; `takeover`: who took over the board when the "
            "captain dropped."
        ),
    )
    def post(self, request, session_id: int):
        session = session_of(request, session_id)
        data = valid(GameInputSerializer, request)
        services.record_game(actor_of(request), session.pk, data, table_key(request))
        return answer(session, status.HTTP_201_CREATED)


class UndoLastGameView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, summary="Undo the last game (the director)")
    def post(self, request, session_id: int):
        session = session_of(request, session_id)
        services.undo_last_game(actor_of(request), session.pk)
        return answer(session)


class PlayersView(APIView):
    @extend_schema(
        parameters=[TABLE_KEY],
        request=PlayerInputSerializer,
        responses={201: OpenApiTypes.OBJECT},
        summary="A player joins the end of the line",
    )
    def post(self, request, session_id: int):
        session = session_of(request, session_id)
        data = valid(PlayerInputSerializer, request)
        services.add_player(actor_of(request), session.pk, data["name"], table_key(request))
        return answer(session, status.HTTP_201_CREATED)


class LeaveView(APIView):
    @extend_schema(parameters=[TABLE_KEY], request=None, responses=OpenApiTypes.OBJECT, summary="A player leaves")
    def post(self, request, session_id: int, player_id: int):
        session = session_of(request, session_id)
        services.remove_player(actor_of(request), session.pk, player_id, table_key(request))
        return answer(session)


class CloseView(APIView):
    @extend_schema(request=None, responses=OpenApiTypes.OBJECT, summary="Close the session and settle the ledger")
    def post(self, request, session_id: int):
        session = session_of(request, session_id)
        services.close_session(actor_of(request), session.pk)
        return answer(session)
