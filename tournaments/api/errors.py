"""API errors: every refusal is JSON with a ``detail`` a person can act on."""

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from tournaments.errors import DomainError


def exception_handler(exc, context):
    if isinstance(exc, DomainError):
        body = {"detail": exc.message}
        if exc.field:
            body["errors"] = {exc.field: [exc.message]}
        return Response(body, status=exc.status_code)
    if isinstance(exc, PermissionDenied):
        message = str(exc) or _("You may not do this.")
        exc = exceptions.PermissionDenied(message)
    response = drf_exception_handler(exc, context)
    if response is not None and isinstance(exc, exceptions.ValidationError):
        errors = response.data
        response.data = {"detail": _first_message(errors), "errors": errors}
        response.status_code = status.HTTP_400_BAD_REQUEST
    return response


def _first_message(errors) -> str:
    if isinstance(errors, dict):
        for field, value in errors.items():
            message = _first_message(value)
            return message if field == "non_field_errors" else f"{field}: {message}"
    if isinstance(errors, list) and errors:
        return _first_message(errors[0])
    return str(errors)
