"""The match clock through the API: the same services and selectors as the pages."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from clocks import selectors, services
from clocks.api import serializers as s
from tournaments.api.views import actor_of, match_of, valid

REFUSALS = (
    "400: the input or the clock's state refuses it (the message says why); 403: not a player of the match "
    "or a director; 409: the clock changed since the version you sent, or the flag has fallen."
)


def clock_response(view: dict) -> Response:
    return Response(s.ClockSerializer(view).data, headers={"Cache-Control": "no-store"})


class ClockView(APIView):
    @extend_schema(responses=s.ClockSerializer, summary="A match's clock (ready until it is first started)")
    def get(self, request, match_id: int):
        view = selectors.clock_view_of(match_of(request, match_id))
        if view is None:
            raise Http404(_("This match has no clock."))
        return clock_response(view)


class StartView(APIView):
    @extend_schema(
        request=s.StartInputSerializer,
        responses=s.ClockSerializer,
        summary="Start a side's time (a ready clock; a player of the match or a director)",
        description=REFUSALS,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.StartInputSerializer, request)
        clock = services.start_clock(actor_of(request), match.pk, data["side"], data.get("version"))
        return clock_response(services.clock_view(clock))


class PressView(APIView):
    @extend_schema(
        request=s.PressInputSerializer,
        responses=s.ClockSerializer,
        summary="Press the clock: the running side's move ends, the other side's time runs",
        description="Either player of the match (as on a table clock) or a director; every press is logged "
        "with who pressed. " + REFUSALS,
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.PressInputSerializer, request)
        clock = services.press_clock(actor_of(request), match.pk, data["side"], data["version"])
        return clock_response(services.clock_view(clock))


class PauseView(APIView):
    @extend_schema(request=s.ReasonInputSerializer, responses=s.ClockSerializer, summary="Director: pause the clock")
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.ReasonInputSerializer, request)
        clock = services.pause_clock(actor_of(request), match.pk, data.get("reason", ""))
        return clock_response(services.clock_view(clock))


class ResumeView(APIView):
    @extend_schema(
        request=s.ReasonInputSerializer, responses=s.ClockSerializer, summary="Director: resume a paused clock"
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.ReasonInputSerializer, request)
        clock = services.resume_clock(actor_of(request), match.pk, data.get("reason", ""))
        return clock_response(services.clock_view(clock))


class AdjustView(APIView):
    @extend_schema(
        request=s.AdjustInputSerializer,
        responses=s.ClockSerializer,
        summary="Director: set a side's time (logged with the reason)",
    )
    def post(self, request, match_id: int):
        match = match_of(request, match_id)
        data = valid(s.AdjustInputSerializer, request)
        clock = services.adjust_clock(
            actor_of(request), match.pk, data["side"], data["seconds"], data.get("reason", "")
        )
        return clock_response(services.clock_view(clock))
