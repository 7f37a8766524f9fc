"""The embedded broker never hands out a message that is still being written (config/filesystem_broker.py)."""

from __future__ import annotations

import json
import queue as queues
import subprocess
import sys
import time

from django.conf import settings
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
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
        "polling_interval": 0.01,
    }
    seen_mid_write = []
    with (
        Connection("filesystem://", transport_options=options) as producer,
        Connection("filesystem://", transport_options=options) as consumer,
    ):
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
    options = {
        "data_folder_in": str(tmp_path),
        "data_folder_out": str(tmp_path),
        "control_folder": str(tmp_path / "control"),
        "polling_interval": 0.01,
    }
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


EXCHANGES = 300


def test_processes_binding_together_never_read_a_half_made_exchange_table(tmp_path):
    """A worker and its beat start together and both bind their queues: nobody reads an empty table.

    With kombu's own transport the first binder creates the table's file empty before it locks it, and
    a second binder that opens it in between fails to decode it (the worker then stops at start-up).
    Here four processes bind a queue each in many new exchanges at the same moments, and every binding
    is kept.
    """
    folder = tmp_path / "control"
    script = (
        (
            "import sys\n"
            "from kombu import Connection, Exchange, Queue\n"
            "import config.filesystem_broker  # noqa: F401 (the alias below)\n"
            "from kombu.transport import TRANSPORT_ALIASES\n"
            "TRANSPORT_ALIASES['filesystem'] = 'config.filesystem_broker:Transport'\n"
            "options = {'data_folder_in': sys.argv[1], 'data_folder_out': sys.argv[1], 'control_folder': sys.argv[2]}\n"
            "with Connection('filesystem://', transport_options=options) as conn:\n"
            "    channel = conn.channel()\n"
            "    while time.time() < float(sys.argv[4]):\n"
            "        pass\n"
            "    for n in range(EXCHANGES):\n"
            "        Queue(f'q{sys.argv[3]}', Exchange(f'x{n}', type='direct'), routing_key='k')(channel).declare()\n"
        )
        .replace("EXCHANGES", str(EXCHANGES))
        .replace("import sys\n", "import sys, time\n")
    )
    start = str(time.time() + 3)  # all four begin together, so each new table is raced for
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(tmp_path), str(folder), str(p), start],
            cwd=settings.BASE_DIR,
            stderr=subprocess.PIPE,
            text=True,
        )
        for p in range(4)
    ]
    errors = [run.communicate(timeout=120)[1] for run in runs]
    assert [run.returncode for run in runs] == [0] * 4, errors
    for n in range(EXCHANGES):
        table = json.loads((folder / f"x{n}.exchange").read_text())
        assert sorted(q for _, _, q in table) == ["q0", "q1", "q2", "q3"]
    assert not list(folder.glob("*.part"))
