"""The console mailer (config.console_mail, the default without a mail server) prints emails readably (decision 26):
plain text, no quoted-printable soft line breaks, every link whole on its line, in any language."""

from __future__ import annotations

import io
import os

from django.core.mail import EmailMessage, EmailMultiAlternatives

from config.console_mail import ConsoleEmailBackend

LINK = "http://127.0.0.1:8000/accounts/signup/activate/MTIzNDU/cz8k1q-4f0c2e6a9b7d3c1e5f8a2b4d6c8e0f1a/?next=%2Ftables%2F12%2F"
BODY = f"Hola Ana, 你好:\n\nTo activate your account, open this link:\n\n{LINK}\n\n— Topos\n"


def printed(message, **backend) -> str:
    stream = io.StringIO()
    ConsoleEmailBackend(stream=stream, **backend).send_messages([message])
    return stream.getvalue()


def test_a_long_link_and_any_language_print_as_they_are_written():
    text = printed(EmailMessage("Actívate: 歡迎", BODY, "Topos <noreply@topos.localhost>", ["ana@example.com"]))
    assert LINK in text.splitlines()  # whole, on a line of its own
    assert "Hola Ana, 你好:" in text and "Subject: Actívate: 歡迎" in text and "To: ana@example.com" in text
    assert "=\n" not in text and "=3D" not in text and "Content-Transfer-Encoding" not in text


def test_an_html_alternative_is_named_and_the_plain_text_printed():
    message = EmailMultiAlternatives("Hi", BODY, None, ["ana@example.com"])
    message.attach_alternative(f'<p><a href="{LINK}">activate</a></p>', "text/html")
    text = printed(message)
    assert LINK in text.splitlines() and "(also in this email: text/html)" in text and "<p>" not in text


def test_the_supervisor_s_descriptor_takes_the_emails(monkeypatch):
    # run.sh's supervisor names its console to the worker this way (config/scripts/supervise.py).
    read, write = os.pipe()
    monkeypatch.setenv("TOPOS_EMAIL_CONSOLE_FD", str(write))
    ConsoleEmailBackend().send_messages([EmailMessage("Hi", BODY, None, ["ana@example.com"])])
    os.close(write)
    with os.fdopen(read) as pipe:
        assert LINK in pipe.read().splitlines()
