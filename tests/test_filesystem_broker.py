"""The broker of ``make run`` (``director/filesystem_broker.py``): a worker never reads a
message that is still being written — kombu's own filesystem transport let it read an
empty file, and the worker stopped — and a file it cannot read is passed over."""

from __future__ import annotations

import logging
import threading

import pytest
from kombu import Connection
from kombu.transport import filesystem

from director import filesystem_broker


@pytest.fixture
def channel(tmp_path):
    folder = tmp_path / "queue"
    folder.mkdir()
    options = {
        "data_folder_in": str(folder),
        "data_folder_out": str(folder),
        "processed_folder": str(tmp_path),
        "control_folder": str(tmp_path),
        "store_processed": False,
    }
    with Connection(transport=filesystem_broker.Transport, transport_options=options) as connection:
        yield connection.default_channel


def test_a_message_half_written_is_not_there_for_a_worker_until_it_is_whole(channel, monkeypatch):
    half_way, go_on = threading.Event(), threading.Event()
    dumps = filesystem_broker.dumps

    def slow_dumps(payload):  # the writer is stopped half-way, as a busy machine may stop it
        half_way.set()
        assert go_on.wait(5)
        return dumps(payload)

    monkeypatch.setattr(filesystem_broker, "dumps", slow_dumps)
    writer = threading.Thread(target=channel._put, args=("celery", {"task": "sweep"}))
    writer.start()
    assert half_way.wait(5)
    with pytest.raises(filesystem.Empty):
        channel._get("celery")  # kombu's own transport hands over an empty file here
    go_on.set()
    writer.join(5)
    assert channel._get("celery") == {"task": "sweep"}


def test_a_file_that_cannot_be_read_is_passed_over_and_the_next_message_read(channel, caplog):
    folder = channel.data_folder_in
    with open(f"{folder}/0001_broken.celery.msg", "wb"):
        pass  # empty, as a writer that died half-way leaves it
    channel._put("celery", {"task": "confirm"})
    with caplog.at_level(logging.ERROR, logger="director.filesystem_broker"):
        assert channel._get("celery") == {"task": "confirm"}
    assert "could not be read" in caplog.text
    with pytest.raises(filesystem.Empty):
        channel._get("celery")
