"""Players authenticate to the API with their private link's key: ``Authorization: Entry <key>``."""

from django.contrib.auth.models import AnonymousUser
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import authentication, exceptions

from tournaments.models import Entry


class EntryKeyAuthentication(authentication.BaseAuthentication):
    keyword = "Entry"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed(_("Send the private key as 'Authorization: Entry <key>'."))
        try:
            key = header[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(_("The private key is not valid.")) from None
        entry = Entry.objects.select_related("tournament").filter(private_key=key).first()
        if entry is None:
            raise exceptions.AuthenticationFailed(_("No player has this private key."))
        return AnonymousUser(), entry

    def authenticate_header(self, request):
        return self.keyword


class EntryKeyScheme(OpenApiAuthenticationExtension):
    target_class = "tournaments.api.authentication.EntryKeyAuthentication"
    name = "entryKey"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A player's private key: `Entry <key>` (the key of the player's /p/<key>/ link).",
        }
