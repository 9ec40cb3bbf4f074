"""The site's email against a real SMTP server (aiosmtpd, started here on a free port): a message
sent while the server is down stays in the outbox, and arrives, text and HTML, once it is back
(issue 36)."""

from __future__ import annotations

import socket
from email import message_from_bytes

import pytest
from aiosmtpd.controller import Controller
from django.core.mail import send_mail

from scorekeeper.celery import app
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_sweep

pytestmark = pytest.mark.django_db


class Inbox:
    """aiosmtpd's handler: keeps what it is given."""

    def __init__(self) -> None:
        self.received: list[bytes] = []

    async def handle_DATA(self, server, session, envelope):
        self.received.append(envelope.original_content)
        return "250 Message accepted"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_settings(settings):
    port = free_port()
    settings.EMAIL_BACKEND = "scorekeeper.outbox.mail.OutboxEmailBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", port
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_TIMEOUT = 2
    settings.OUTBOX_GRACE = 0
    # The task runs here, with these settings (on the PostgreSQL pass a worker would use its own).
    before = {key: app.conf.get(key) for key in ("task_always_eager", "task_eager_propagates")}
    app.conf.update(task_always_eager=True, task_eager_propagates=True)
    yield port
    app.conf.update(before)


def test_a_message_sent_while_the_server_is_down_arrives_when_it_returns(
    smtp_settings, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        send_mail(
            "Votre partie", "Bonjour,\nla partie est finie.", None, ["ann@example.org"],
            html_message="<p>Bonjour,<br>la partie est finie.</p>",
        )  # fmt: skip
    [message] = OutboxMessage.objects.all()
    assert message.pending and "refused" in message.last_error.lower()
    outbox_sweep()  # still down: still kept
    message.refresh_from_db()
    assert message.pending and message.attempts == 2

    inbox = Inbox()
    server = Controller(inbox, hostname="127.0.0.1", port=smtp_settings)
    server.start()
    try:
        assert outbox_sweep() == {"due": 1, "dispatched": 1}
    finally:
        server.stop()

    message.refresh_from_db()
    assert not message.pending
    [raw] = inbox.received
    mail = message_from_bytes(raw)
    assert mail["To"] == "ann@example.org" and mail["Subject"] == "Votre partie"
    parts = {
        part.get_content_type(): part.get_payload(decode=True).decode()
        for part in mail.walk()
        if not part.is_multipart()
    }
    assert "la partie est finie" in parts["text/plain"] and "<p>Bonjour" in parts["text/html"]
    assert outbox_sweep() == {"due": 0, "dispatched": 0}  # delivered once
