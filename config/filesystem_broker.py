"""The embedded default's broker: kombu's filesystem transport, with messages that appear whole.

kombu 5.7 creates a message's file, then locks and writes it, while a consumer takes any file with
the queue's name without looking at the lock: a worker polling at that moment read an empty file,
failed to decode it and stopped (seen while several test runs shared the machine).  Here a message is
written under a name no consumer takes (`….msg.part`) and renamed into place, which is atomic in
one folder, so a consumer sees a whole message or none.  `config/celery.py` makes this the transport
of `filesystem://`.
"""
from __future__ import annotations

import os
import uuid
from time import monotonic

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import str_to_bytes
from kombu.utils.json import dumps


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


class Transport(filesystem.Transport):
    Channel = Channel
