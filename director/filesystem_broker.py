"""The Celery broker of ``make run`` (no server to install): kombu's filesystem
transport, with each message written whole before a worker can see it.

kombu 5.7 creates a message's file and then writes into it. A worker that lists the
folder in between reads an empty file, and the JSONDecodeError stops the worker (and
``runstack`` with it): seen after ~13 minutes of beat's clock sweeps every 2 s. Here a
message is written under a name no worker reads (``….msg.part``) and renamed into
place, which is atomic. A file that still cannot be read is logged and passed over,
never a reason to stop.

Settings use it as ``CELERY_BROKER_URL = "director-filesystem://"``; importing this
module (``director/celery.py`` does) registers that name with kombu.
"""

from __future__ import annotations

import logging
import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import TRANSPORT_ALIASES, filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps

logger = logging.getLogger(__name__)

SCHEME = "director-filesystem"


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        """Put a message on the queue: written in full, then renamed into the folder."""
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = f"{final}.part"  # not "<queue>.msg": a worker passes over it
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        """The next message of the queue; one that cannot be read is logged and skipped
        (kombu has taken its file out of the folder already)."""
        while True:
            try:
                return super()._get(queue)
            except ValueError as exc:  # json.JSONDecodeError
                logger.error("A message on queue %s could not be read and was passed over: %s", queue, exc)


class Transport(filesystem.Transport):
    Channel = Channel


TRANSPORT_ALIASES.setdefault(SCHEME, f"{__name__}:Transport")
