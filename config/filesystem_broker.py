"""The embedded default's broker: kombu's filesystem transport, with messages that appear whole.

kombu 5.7 creates a message's file, then locks and writes it, while a consumer takes any file with
the queue's name without looking at the lock: a worker polling at that moment read an empty file,
failed to decode it and stopped (seen while several test runs shared the machine).  Here a message is
written under a name no consumer takes (`….msg.part`) and renamed into place, which is atomic in
one folder, so a consumer sees a whole message or none.  `config/celery.py` makes this the transport
of `filesystem://`.

The exchange tables (which queue a routing key goes to) had the same fault: the first process to bind
creates the table's file empty and only then locks it, so a worker and its beat starting together could
read it empty and the worker stopped before taking any task (seen in a browser test).  Here binding is
serialised by a lock file of its own, the table is replaced whole by a rename, and readers never lock.
"""

from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads


class Channel(filesystem.Channel):
    def _put(self, queue, payload, **kwargs):
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = final + ".part"  # "<stamp>_<uuid>.<queue>.msg.part": not "<queue>.msg", so never taken
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def get_table(self, exchange):
        return [filesystem.exchange_queue_t(*q) for q in _read_table(self._exchange_file(exchange))]

    def _queue_bind(self, exchange, routing_key, pattern, queue):
        table = self._exchange_file(exchange)
        self.control_folder.mkdir(exist_ok=True)
        entry = filesystem.exchange_queue_t(routing_key or "", pattern or "", queue or "")
        try:
            with open(table.with_name(table.name + ".lock"), "ab") as guard:
                filesystem.lock(guard, filesystem.LOCK_EX)  # one binder at a time reads, adds and replaces
                try:
                    entries = [filesystem.exchange_queue_t(*q) for q in _read_table(table)]
                    if entry in entries:
                        return
                    partial = table.with_name(f"{table.name}.{uuid.uuid4()}.part")
                    partial.write_bytes(str_to_bytes(dumps([entry, *entries])))
                    os.replace(partial, table)
                finally:
                    filesystem.unlock(guard)
        except OSError as exc:
            raise ChannelError(f"Cannot bind {queue!r} in {table}") from exc


def _read_table(table) -> list:
    """An exchange table as written whole by `_queue_bind`; none yet is an empty table."""
    try:
        text = bytes_to_str(table.read_bytes())
    except FileNotFoundError:
        return []
    except OSError as exc:
        raise ChannelError(f"Cannot open {table}") from exc
    return loads(text) if text.strip() else []


class Transport(filesystem.Transport):
    Channel = Channel
