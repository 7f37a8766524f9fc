"""The default mailer without a mail server: each email printed readably on the console (decision 26, point 7).

Django's console backend prints the message as it would go on the wire: a body with a line longer than 78
characters (any link with a token) comes out quoted-printable, its link cut by soft line breaks ("=" at the end of a
line, "=3D" for "="), so a link copied from the terminal is broken.  This one prints the headers a person reads and
the plain-text body decoded, each line whole.

Where: the file descriptor named by TOPOS_EMAIL_CONSOLE_FD when set, else standard output.  `run.sh`'s supervisor
(config/scripts/supervise.py) hands its own standard output to the worker that way, whose output otherwise goes to
.broker/worker.log, so that the emails of the web process and the worker alike show on the console run.sh shows.
"""

from __future__ import annotations

import os
import sys

from django.core.mail.backends.console import EmailBackend

RULE = "-" * 79
SHOWN_HEADERS = ("From", "To", "Cc", "Reply-To", "Subject", "Date")


def readable(message) -> str:
    """One EmailMessage as a person reads it: its headers, then its plain-text body decoded (no transfer encoding)."""
    mime = message.message()
    lines = [f"{name}: {mime[name]}" for name in SHOWN_HEADERS if mime[name]]
    if message.bcc:
        lines.append(f"Bcc: {', '.join(message.bcc)}")
    body = mime.get_body(preferencelist=("plain",))
    lines.append("")
    lines.append(body.get_content().rstrip("\n") if body is not None else "(no plain-text part)")
    others = [part.get_content_type() for part in mime.walk() if not part.is_multipart() and part is not body]
    if others:
        lines += ["", "(also in this email: " + ", ".join(others) + ")"]
    return "\n".join(lines)


class ConsoleEmailBackend(EmailBackend):
    def __init__(self, fail_silently=False, **kwargs):
        super().__init__(fail_silently=fail_silently, **kwargs)
        self.fd = None
        if "stream" not in kwargs and os.environ.get("TOPOS_EMAIL_CONSOLE_FD", "").isdigit():
            self.fd = int(os.environ["TOPOS_EMAIL_CONSOLE_FD"])

    def write_message(self, message):
        text = (
            f"{RULE}\nAn email, printed here as no mail server is set (EMAIL_BACKEND, EMAIL_HOST: docs/operations.md)\n"
        )
        text += f"{readable(message)}\n{RULE}\n"
        if self.fd is None:
            self.stream.write(text)
            return
        data = text.encode()  # one write a message, so that two processes' emails do not interleave
        while data:
            try:
                data = data[os.write(self.fd, data) :]
            except OSError:  # the descriptor is gone (a worker started apart): standard output then
                self.fd = None
                sys.stdout.write(data.decode(errors="replace"))
                return
