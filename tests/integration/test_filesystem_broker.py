"""The embedded broker never hands out a message that is still being written (config/filesystem_broker.py)."""
from __future__ import annotations

import queue as queues

from kombu import Connection
from kombu.transport import filesystem as kombu_filesystem
from kombu.utils import json as kombu_json

from config import filesystem_broker


def test_a_consumer_polling_while_a_message_is_written_does_not_get_it_torn(tmp_path, monkeypatch):
    """A consumer polls at the worst moment: while the producer is still encoding the message.

    With kombu's own transport the file already exists then, empty, and the consumer takes it and
    fails to decode it (the worker crash this module fixes); here the consumer finds nothing yet,
    and gets the whole message after.
    """
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path), "polling_interval": 0.01}
    seen_mid_write = []
    with Connection("filesystem://", transport_options=options) as producer, \
            Connection("filesystem://", transport_options=options) as consumer:
        assert isinstance(producer.transport, filesystem_broker.Transport)
        inbox = consumer.SimpleQueue("race")

        def encode_while_a_consumer_polls(payload, *args, **kwargs):
            try:
                message = inbox.get(block=False)
                seen_mid_write.append(message.payload)
            except queues.Empty:
                seen_mid_write.append(None)
            except Exception as exc:  # noqa: BLE001 (what kombu's own transport raised on an empty file)
                seen_mid_write.append(exc)
            return kombu_json.dumps(payload, *args, **kwargs)

        monkeypatch.setattr(filesystem_broker, "dumps", encode_while_a_consumer_polls)
        monkeypatch.setattr(kombu_filesystem, "dumps", encode_while_a_consumer_polls)
        producer.SimpleQueue("race").put({"move": 42})
        assert seen_mid_write == [None]  # nothing to take while it is written
        monkeypatch.undo()
        assert inbox.get(timeout=5).payload == {"move": 42}
    assert not list(tmp_path.glob("*.part"))


def test_every_message_arrives_once_and_whole(tmp_path):
    messages = 200
    options = {"data_folder_in": str(tmp_path), "data_folder_out": str(tmp_path), "polling_interval": 0.01}
    with Connection("filesystem://", transport_options=options) as conn:
        out, inbox = conn.SimpleQueue("many"), conn.SimpleQueue("many")
        for n in range(messages):
            out.put({"n": n, "padding": "x" * 5_000})
        got = []
        for _ in range(messages):
            message = inbox.get(timeout=5)
            got.append(message.payload["n"])
            message.ack()
    assert sorted(got) == list(range(messages))
