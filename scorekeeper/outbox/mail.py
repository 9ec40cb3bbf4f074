"""Email through the outbox: Django's ``EMAIL_BACKEND`` for the whole site, so that a mail server
that is down delays a message and loses none.

Sending (``send_mail``, allauth's messages, ``mail_admins``) stores each message as an outbox
message in the caller's transaction; the task ``outbox.mail_send`` delivers it with
``EMAIL_DELIVERY_BACKEND`` (SMTP in production, the console by default). While the server is
down the task fails, the message stays pending, and the outbox's sweep hands it over again
until it goes through. A message refused for good (a recipient or sender the server rejects)
is logged as an error and not tried again. Delivery is at least once: a worker that dies
between the server's acceptance and the row's update sends it again.
"""

from __future__ import annotations

import logging
import smtplib
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives, get_connection
from django.core.mail.backends.base import BaseEmailBackend

from .services import outbox_enqueue

log = logging.getLogger(__name__)

MAIL_TASK = "outbox.mail_send"


class OutboxEmailBackend(BaseEmailBackend):
    """Stores each message in the outbox; ``outbox.mail_send`` delivers it after the commit."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        for message in email_messages:
            outbox_enqueue(task=MAIL_TASK, kwargs={"message": mail_to_json(message)})
        return len(email_messages)


def mail_to_json(message: EmailMessage) -> dict[str, Any]:
    """A message as JSON values (the outbox row's arguments). Attachments are refused: no message
    of the site has one, and a file does not belong in a task's arguments."""
    if message.attachments:
        raise ValueError("a message sent through the outbox cannot carry attachments")
    alternatives = getattr(message, "alternatives", [])
    return {
        "subject": str(message.subject),
        "body": str(message.body),
        "from_email": str(message.from_email),
        "to": [str(address) for address in message.to],
        "cc": [str(address) for address in message.cc],
        "bcc": [str(address) for address in message.bcc],
        "reply_to": [str(address) for address in message.reply_to],
        "headers": {str(name): str(value) for name, value in message.extra_headers.items()},
        "alternatives": [[str(content), str(mimetype)] for content, mimetype in alternatives],
    }


def mail_from_json(data: dict[str, Any]) -> EmailMultiAlternatives:
    message = EmailMultiAlternatives(
        subject=data["subject"],
        body=data["body"],
        from_email=data["from_email"],
        to=data["to"],
        cc=data["cc"],
        bcc=data["bcc"],
        reply_to=data["reply_to"],
        headers=data["headers"],
    )
    for content, mimetype in data["alternatives"]:
        message.attach_alternative(content, mimetype)
    return message


#: What the server answers when it will never take the message: retrying cannot help.
PERMANENT_FAILURES = (smtplib.SMTPRecipientsRefused, smtplib.SMTPSenderRefused)


def mail_deliver(data: dict[str, Any]) -> bool:
    """Deliver one stored message now; False when the server refused it for good. Raises while
    the server cannot be reached (the outbox keeps the message pending and hands it over again)."""
    message = mail_from_json(data)
    connection = get_connection(settings.EMAIL_DELIVERY_BACKEND, fail_silently=False)
    try:
        connection.send_messages([message])
    except PERMANENT_FAILURES as exc:
        log.error("mail %r to %s refused for good: %r", message.subject, message.to, exc)
        return False
    return True
